// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// The files the OneComme server has of its own: the preset templates, OneSDK, the `__origin`
/// CSS and the index page, put into the binary at build time from `Assets/` (the EmbedAssets
/// plugin); and Vue 3's browser build, which is not ours to put in the binary or the repository:
/// `make deps` fetches it (docs/doors.md) and the packages install it beside the renderer's data.
enum OneCommeAssets {
    /// An embedded file, by its path under `Assets/` (`origin/js/onesdk.js`, `preset/bar/index.html`).
    static func file(_ path: String) -> [UInt8]? {
        guard let text = EmbeddedAssets.files[path] else { return nil }
        return text.withUTF8Buffer { Array($0) }
    }

    /// The preset templates' names, sorted.
    static var presets: [String] {
        Set(EmbeddedAssets.files.keys.compactMap { key -> String? in
            let parts = key.split(separator: "/")
            return parts.count >= 3 && parts[0] == "preset" ? String(parts[1]) : nil
        }).sorted()
    }

    /// Where Vue's file is looked for, in order: `COMMENTBAR_VUE_JS` (tests); beside the renderer
    /// (a build: `make deps` puts it there); the tarball's layout (`bin/64bit/commentbar`, data in
    /// `data/onecomme/`); the .deb's and the Flatpak's (`…/libexec/comment-bar/commentbar`, data in
    /// `…/share/obs/obs-plugins/comment-bar/onecomme/`).
    static func vueCandidates(executable: String?, environment: String?) -> [String] {
        var candidates: [String] = []
        if let environment, !environment.isEmpty { candidates.append(environment) }
        if let executable, let slash = executable.lastIndex(of: "/") {
            let folder = String(executable[..<slash])
            candidates.append(folder + "/vue.min.js")
            candidates.append(folder + "/../../data/onecomme/vue.min.js")
            candidates.append(folder + "/../../share/obs/obs-plugins/comment-bar/onecomme/vue.min.js")
        }
        candidates.append("/usr/share/obs/obs-plugins/comment-bar/onecomme/vue.min.js")
        return candidates
    }

    /// Vue's file and where it was found, or the places looked in. Blocking (a thread pool's job).
    static func loadVue() -> (bytes: [UInt8], path: String)? {
        let executable = readLink("/proc/self/exe")
        let environment = getenv("COMMENTBAR_VUE_JS").map { String(cString: $0) }
        for path in vueCandidates(executable: executable, environment: environment) {
            if let bytes = readSmallFile(path, limit: 4 << 20) { return (bytes, path) }
        }
        return nil
    }

    static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A regular file of at most `limit` bytes, whole, or nil.
    static func readSmallFile(_ path: String, limit: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return try? FileRead.whole(fd, limit: limit).get()
    }
}

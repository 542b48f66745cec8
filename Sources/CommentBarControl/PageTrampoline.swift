// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import FoundationEssentials
import Glibc

/// How "Open control page" (the source's button, `commentbar control-url --open`) hands the
/// browser its one-time link without putting it in a command line, which every user's `ps` shows
/// (`/proc/PID/cmdline`): the link goes into a small HTML file only this user can read, which
/// sends the browser on to it, and `xdg-open` is given that file's `file://` address. Jupyter's
/// server opens its browser the same way (jupyter-server/jupyter_server at 9a4d6ee:
/// jupyter_server/serverapp.py lines 1774-1777 name `jpserver-PID-open.html` in its runtime folder,
/// 3000-3041 write it, 3082-3086 hand the browser its file URL; templates/browser-open.html lines
/// 1-2 say why, line 7 is its refresh). Our file is written fresh, with one difference: it is
/// one per code, removed once the code is used, where Jupyter keeps one per server.
///
/// The file is `open-H.html`, H from the SHA-256 of the link's code (the name tells nothing of
/// the code), in `$XDG_RUNTIME_DIR/comment-bar` (else the token's folder), created 0600 with
/// `O_CREAT|O_EXCL|O_NOFOLLOW` in a 0700 folder of ours. It is removed once the code is used
/// (the server knows the name from the code), or, failing that, by the next writer once its code
/// has expired.
public enum PageTrampoline {
    static let namePrefix = "open-"
    static let nameSuffix = ".html"
    /// Left files are removed once older than this (a code works for 60 s).
    static let keptFor: Int = 120

    public struct Problem: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// `$XDG_RUNTIME_DIR/comment-bar` when that is a folder of ours, else the token's folder.
    public static func folder() -> String? {
        if let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), runtime.hasPrefix("/") {
            var info = stat()
            if stat(runtime, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid() {
                return runtime + "/comment-bar"
            }
        }
        return ControlToken.folder()
    }

    /// The file's name for a link's code.
    static func fileName(code: String) -> String {
        namePrefix + String(GLibSHA256.hex(Array(("commentbar-trampoline|" + code).utf8)).prefix(32)) + nameSuffix
    }

    /// The code of a one-time link (`…/?code=CODE`).
    static func code(of link: String) -> String? {
        URLComponents(string: link)?.queryItems?.first { $0.name == "code" }?.value
    }

    /// Writes the file for `link` into `folder` (default: `folder()`) and gives its `file://`
    /// address; files left by earlier opens whose codes have expired are removed first.
    public static func write(link: String, folder: String? = nil) throws(Problem) -> String {
        guard let folder = folder ?? Self.folder() else {
            throw Problem(description: "neither XDG_RUNTIME_DIR, XDG_CONFIG_HOME nor HOME is set")
        }
        // The server's own links are letters, digits and `:/.?=` only: nothing to escape in HTML.
        guard let code = code(of: link), link.hasPrefix("http://"), link.utf8.allSatisfy(isPlain) else {
            throw Problem(description: "not a one-time link: \(link.prefix(60))")
        }
        do throws(PrivateFiles.Problem) {
            try PrivateFiles.folder(folder)
            sweep(folder)
            let path = folder + "/" + fileName(code: code)
            guard try PrivateFiles.create(path, page(link: link)) else {
                throw PrivateFiles.Problem(description: "\(path) exists already")
            }
            return "file://" + percentEncoded(path)
        } catch {
            throw Problem(description: "cannot write the page's link file: \(error.description)")
        }
    }

    /// Removes the file of `code` from `folder` (default: `folder()`), if there is one.
    static func remove(code: String, folder: String? = nil) {
        guard let folder = folder ?? Self.folder() else { return }
        unlink(folder + "/" + fileName(code: code))
    }

    /// Removes the link files in `folder` older than `keptFor` (their codes no longer work).
    static func sweep(_ folder: String) {
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        let now = time(nil)
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasPrefix(namePrefix), name.hasSuffix(nameSuffix) else { continue }
            let path = folder + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, info.st_uid == getuid(), now - info.st_mtim.tv_sec > keptFor else { continue }
            unlink(path)
        }
    }

    /// The page: a refresh to the link at once, and the link to click should that be blocked. No
    /// referrer, and nothing but the link: the file only sends the browser on.
    static func page(link: String) -> String {
        """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">
            <meta http-equiv="refresh" content="0;url=\(link)">
            <title>Comment Bar control page</title></head>
            <body><p><a href="\(link)">Open the Comment Bar control page</a></p></body></html>

            """
    }

    static func isPlain(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x7a).contains(byte) || (0x41...0x5a).contains(byte)
            || ":/.?=_-[]".utf8.contains(byte)
    }

    /// A path as a `file://` address takes it: bytes other than letters, digits and `/._~-` as `%XX`.
    static func percentEncoded(_ path: String) -> String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._~-".utf8)
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in path.utf8 {
            if plain.contains(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarSupport

/// HTML5コメジェネ's `setting.xml`, as a convenience MultiCommentViewer offers (its
/// CommentGeneratorPlugin finds the folder to write comment.xml in from the file's `<HcgPath>`;
/// notes/real-clients.md): the streamer may name that file instead of comment.xml, and the bar
/// writes `comment.xml` in the folder it names. The file is only read. Written on Windows, the
/// folder may be a Windows path: Wine's drive Z: is the root, any other drive is refused with the
/// way out (name the folder's comment.xml).
enum GeneratorSettingFile {
    enum Found: Equatable {
        /// Where comment.xml goes.
        case commentXML(String)
        /// Why not (for the status line).
        case refused(String)
    }

    /// A settings file is a few hundred bytes.
    static let maxBytes = 1 << 20

    /// Whether the path names a setting.xml (any case, as Windows names are).
    static func names(_ path: String) -> Bool {
        path.split(separator: "/").last?.lowercased() == "setting.xml"
    }

    static func commentXMLPath(from path: String) -> Found {
        switch BoundedFileRead.read(path, maxBytes: maxBytes) {
        case .missing:
            return .refused("\(path) does not exist: name HTML5コメジェネ's setting.xml or a comment.xml")
        case .refused(let why):
            return .refused("\(path) \(why)")
        case .bytes(let bytes):
            let finder = FolderFinder()
            guard MarkupParse.parse(bytes, into: finder), let folder = finder.folder else {
                return .refused("\(path) has no <HcgPath> (HTML5コメジェネ's folder): name that folder's comment.xml instead")
            }
            return commentXMLPath(inFolder: folder, namedBy: path)
        }
    }

    /// `folder` as the file gives it: a Linux path, or a Windows one on Wine's drive Z:.
    static func commentXMLPath(inFolder folder: String, namedBy path: String) -> Found {
        var linux = folder
        let characters = Array(folder)
        if characters.count >= 2, characters[1] == ":", characters[0].isLetter {
            guard characters[0].lowercased() == "z" else {
                return .refused("\(path) names \(String(reflecting: String(folder.prefix(120)))), a Windows folder: "
                                + "name that folder's comment.xml by its Linux path instead")
            }
            linux = String(characters.dropFirst(2)).replacingBackslashes()
        }
        while linux.count > 1, linux.hasSuffix("/") { linux.removeLast() }
        guard linux.hasPrefix("/") else {
            return .refused("\(path) names \(String(reflecting: String(folder.prefix(120)))), not a full path: "
                            + "name that folder's comment.xml instead")
        }
        return .commentXML(linux == "/" ? "/comment.xml" : linux + "/comment.xml")
    }

    /// The text of the first `<HcgPath>`, wherever it is.
    private final class FolderFinder: MarkupHandler {
        var folder: String?
        private var inside = false
        private var body = ""

        func start(_ name: String, attributes: [String: String]) {
            guard folder == nil, name == "HcgPath" else { return }
            inside = true
            body = ""
        }

        func text(_ text: String) {
            if inside { body += text }
        }

        func end(_ name: String) {
            guard inside, name == "HcgPath" else { return }
            inside = false
            let trimmed = body.trimmingWhitespace(andNewlines: true)
            if !trimmed.isEmpty { folder = trimmed }
        }
    }
}

private extension String {
    func replacingBackslashes() -> String {
        String(map { $0 == "\\" ? "/" : $0 })
    }
}

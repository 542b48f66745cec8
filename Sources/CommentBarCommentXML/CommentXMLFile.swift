// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport

/// The rows a comment.xml already holds when the bar starts writing there (MultiCommentViewer's,
/// or the bar's own from before a restart): kept, as MultiCommentViewer keeps them, and the
/// numbering goes on after them (`MarkupParse`).
/// A file that is not comment.xml is never written over: the user may have named the wrong file.
enum CommentXMLFile {
    enum Loaded: Equatable {
        case rows([CommentXMLRow])
        /// Why the path is not written (for the status line).
        case refused(String)
    }

    /// MultiCommentViewer trims at 1,000 rows; a file far larger is not one of ours.
    static let maxBytes = 4 << 20

    static func load(_ path: String) -> Loaded {
        switch BoundedFileRead.read(path, maxBytes: maxBytes) {
        case .missing:
            return .rows([])
        case .refused(let why):
            return .refused("\(path) \(why): choose another file")
        case .bytes(let bytes):
            if bytes.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) { return .rows([]) }
            guard let rows = parse(bytes) else {
                return .refused("\(path) is not a comment.xml (no <log> of <comment>s): the bar does not write over it; "
                                + "choose another file or move it away")
            }
            return .rows(rows)
        }
    }

    /// The `<comment>`s of a `<log>`, or nil when the bytes are not one.
    static func parse(_ file: [UInt8]) -> [CommentXMLRow]? {
        let collector = Collector()
        guard MarkupParse.parse(file, into: collector), collector.root == "log" else { return nil }
        return collector.rows
    }

    /// What the parse found: the root's name and each `<comment>` of it.
    private final class Collector: MarkupHandler {
        var root: String?
        var rows: [CommentXMLRow] = []
        private var attributes: [String: String]?
        private var body = ""

        func start(_ name: String, attributes found: [String: String]) {
            if root == nil {
                root = name
                return
            }
            guard name == "comment", root == "log" else { return }
            attributes = found
            body = ""
        }

        func text(_ text: String) {
            if attributes != nil { body += text }
        }

        func end(_ name: String) {
            guard name == "comment", let found = attributes else { return }
            attributes = nil
            rows.append(CommentXMLRow(number: Int(found["no"] ?? "") ?? 0, time: Int(found["time"] ?? "") ?? 0,
                                      service: found["service"] ?? "", handle: found["handle"] ?? "", text: body))
        }
    }
}

// SPDX-License-Identifier: GPL-2.0-or-later
import CGLib
import CommentBarSupport

/// The rows a comment.xml already holds when the bar starts writing there (MultiCommentViewer's,
/// or the bar's own from before a restart): kept, as MultiCommentViewer keeps them, and the
/// numbering goes on after them. Parsed with GLib's GMarkup (GLib is in the renderer already).
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
        // MultiCommentViewer's file begins with a UTF-8 byte order mark (.NET's XElement.Save),
        // which GMarkup does not take.
        let bytes = file.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(file.dropFirst(3)) : file
        let collector = Collector()
        // GMarkup keeps the parser's address for the context's life: it lives on the heap.
        let parser = UnsafeMutablePointer<GMarkupParser>.allocate(capacity: 1)
        parser.initialize(to: GMarkupParser())
        defer {
            parser.deinitialize(count: 1)
            parser.deallocate()
        }
        parser.pointee.start_element = { _, name, names, values, data, _ in
            guard let name, let data else { return }
            Unmanaged<Collector>.fromOpaque(data).takeUnretainedValue().start(String(cString: name), names, values)
        }
        parser.pointee.end_element = { _, name, data, _ in
            guard let name, let data else { return }
            Unmanaged<Collector>.fromOpaque(data).takeUnretainedValue().end(String(cString: name))
        }
        parser.pointee.text = { _, text, length, data, _ in
            guard let text, let data else { return }
            let bytes = UnsafeRawBufferPointer(start: text, count: Int(length))
            Unmanaged<Collector>.fromOpaque(data).takeUnretainedValue().text(String(decoding: bytes, as: UTF8.self))
        }
        guard let context = g_markup_parse_context_new(parser, GMarkupParseFlags(rawValue: 0),
                                                       Unmanaged.passUnretained(collector).toOpaque(), nil) else { return nil }
        defer { g_markup_parse_context_free(context) }
        let parsed = withExtendedLifetime(collector) {
            bytes.withUnsafeBytes { buffer -> Bool in
                guard let base = buffer.baseAddress?.assumingMemoryBound(to: CChar.self) else { return false }
                return g_markup_parse_context_parse(context, base, gssize(buffer.count), nil) != 0
                    && g_markup_parse_context_end_parse(context, nil) != 0
            }
        }
        guard parsed, collector.root == "log" else { return nil }
        return collector.rows
    }

    /// What GMarkup's callbacks found: the root's name and each `<comment>` of it.
    private final class Collector {
        var root: String?
        var rows: [CommentXMLRow] = []
        private var attributes: [String: String]?
        private var body = ""

        func start(_ name: String, _ names: UnsafeMutablePointer<UnsafePointer<gchar>?>?,
                   _ values: UnsafeMutablePointer<UnsafePointer<gchar>?>?) {
            if root == nil {
                root = name
                return
            }
            guard name == "comment", root == "log" else { return }
            var found: [String: String] = [:]
            var index = 0
            while let key = names?[index], let value = values?[index] {
                found[String(cString: key)] = String(cString: value)
                index += 1
            }
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

// SPDX-License-Identifier: GPL-2.0-or-later
import CGLib

/// What a parse hands on: each element's start (with its attributes), its text and its end.
protocol MarkupHandler: AnyObject {
    func start(_ name: String, attributes: [String: String])
    func text(_ text: String)
    func end(_ name: String)
}

/// A whole file through GLib's GMarkup (GLib is in the renderer already): comment.xml and
/// HTML5コメジェネ's setting.xml are small XML files a reader takes whole.
enum MarkupParse {
    /// True when the bytes are well-formed. A UTF-8 byte order mark (.NET's XElement.Save writes
    /// one; MultiCommentViewer's and NCV's files have it), which GMarkup does not take, is skipped.
    static func parse(_ file: [UInt8], into handler: some MarkupHandler) -> Bool {
        let bytes = file.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(file.dropFirst(3)) : file
        let box = HandlerBox(handler)
        // GMarkup keeps the parser's address for the context's life: it lives on the heap.
        let parser = UnsafeMutablePointer<GMarkupParser>.allocate(capacity: 1)
        parser.initialize(to: GMarkupParser())
        defer {
            parser.deinitialize(count: 1)
            parser.deallocate()
        }
        parser.pointee.start_element = { _, name, names, values, data, _ in
            guard let name, let data else { return }
            var attributes: [String: String] = [:]
            var index = 0
            while let key = names?[index], let value = values?[index] {
                attributes[String(cString: key)] = String(cString: value)
                index += 1
            }
            Unmanaged<HandlerBox>.fromOpaque(data).takeUnretainedValue().handler.start(String(cString: name),
                                                                                      attributes: attributes)
        }
        parser.pointee.end_element = { _, name, data, _ in
            guard let name, let data else { return }
            Unmanaged<HandlerBox>.fromOpaque(data).takeUnretainedValue().handler.end(String(cString: name))
        }
        parser.pointee.text = { _, text, length, data, _ in
            guard let text, let data else { return }
            let bytes = UnsafeRawBufferPointer(start: text, count: Int(length))
            Unmanaged<HandlerBox>.fromOpaque(data).takeUnretainedValue().handler.text(String(decoding: bytes, as: UTF8.self))
        }
        guard let context = g_markup_parse_context_new(parser, GMarkupParseFlags(rawValue: 0),
                                                       Unmanaged.passUnretained(box).toOpaque(), nil) else { return false }
        defer { g_markup_parse_context_free(context) }
        return withExtendedLifetime(box) {
            bytes.withUnsafeBytes { buffer -> Bool in
                guard let base = buffer.baseAddress?.assumingMemoryBound(to: CChar.self) else { return false }
                return g_markup_parse_context_parse(context, base, gssize(buffer.count), nil) != 0
                    && g_markup_parse_context_end_parse(context, nil) != 0
            }
        }
    }

    /// The handler behind one pointer GMarkup can carry (a protocol existential has no single address).
    private final class HandlerBox {
        let handler: any MarkupHandler
        init(_ handler: any MarkupHandler) { self.handler = handler }
    }
}

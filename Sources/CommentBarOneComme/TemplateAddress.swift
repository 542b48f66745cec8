// SPDX-License-Identifier: GPL-2.0-or-later
/// What a path under `/templates/preset/` or `/templates/custom/` names, from its checked segments
/// (`TemplatePath`): a file of one template, or a template's folder named without its slash (its
/// relative links need the slash). `__origin` is a route of its own (`OneCommeRoutes.table`).
enum TemplateAddress: Equatable, Sendable {
    case file(name: String, path: [String])
    case redirect(String)
    case notFound
    /// A path that could lead out of its folder, or is not one we would ever serve.
    case refused

    /// `set`: `preset` or `custom`; `rest`: the path after `/templates/SET/`.
    init(set: String, rest: Substring) {
        guard let segments = TemplatePath.segments("/" + rest) else {
            self = .refused
            return
        }
        let name = segments[0]
        let path = Array(segments.dropFirst())
        if path.isEmpty {
            self = name == "index.html" ? .notFound : .redirect("/templates/\(set)/\(Self.percentEncoded(name))/")
        } else {
            self = .file(name: name, path: path)
        }
    }

    /// A name as one path segment of a URL.
    static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                out += "%"
                out.unicodeScalars.append(digits[Int(byte >> 4)])
                out.unicodeScalars.append(digits[Int(byte & 0xF)])
            }
        }
        return out
    }
}

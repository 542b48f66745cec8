// SPDX-License-Identifier: GPL-2.0-or-later
/// Text made inert inside HTML or XML markup, written once: `&`, `<`, `>` and both quotes as
/// entities, so it is text in an element and in a quoted attribute alike.
public enum MarkupEscaping {
    public enum Dialect: Sendable {
        /// A page (OneComme's `data.comment`, the templates' index): `'` as `&#39;`.
        case html
        /// An XML 1.0 file (comment.xml): `'` as `&apos;`, and the characters XML 1.0 cannot hold
        /// at all (controls but tab and line breaks, U+FFFE, U+FFFF) dropped: a file must parse
        /// whatever comes.
        case xml
    }

    public static func escaped<S: Sequence<Unicode.Scalar>>(_ scalars: S, for dialect: Dialect) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(scalars.underestimatedCount)
        for scalar in scalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += dialect == .xml ? "&apos;" : "&#39;"
            default:
                if dialect == .xml, !allowedInXML(scalar) { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func allowedInXML(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: return true
        case 0xFFFE, 0xFFFF: return false
        default: return scalar.value >= 0x20
        }
    }
}

// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// What a gift is worth, read from the row the platform gave: the number in its name when it has
/// one (YouTube's `¥500`, `CA$10.00`, OPENREC's `1,000エール`, niconico's `… 500pt`) with what stands
/// before or after it as the currency (a known symbol as its ISO code); else the gift's count
/// (Twitch's Bits, SHOWROOM's stars, gifted subs), Bits named `bits`. `gift_min:N` compares `amount`.
public struct GiftAmount: Sendable, Equatable {
    public var amount: Double
    public var currency: String

    public init(amount: Double, currency: String) {
        self.amount = amount
        self.currency = currency
    }

    /// Currency symbols as YouTube writes them, longest first (so `CA$` wins over `$`).
    static let symbols: [(String, String)] = [
        ("CA$", "CAD"), ("NT$", "TWD"), ("HK$", "HKD"), ("US$", "USD"), ("MX$", "MXN"), ("NZ$", "NZD"),
        ("A$", "AUD"), ("R$", "BRL"), ("¥", "JPY"), ("￥", "JPY"), ("$", "USD"), ("€", "EUR"), ("£", "GBP"),
        ("₩", "KRW"), ("₹", "INR"), ("₱", "PHP"), ("₫", "VND"), ("฿", "THB"),
    ]

    public init(name: String, count: Int) {
        let scalars = Array(name.unicodeScalars)
        guard let start = scalars.firstIndex(where: { ("0"..."9").contains($0) }) else {
            amount = Double(max(count, 0))
            currency = name.lowercased() == "bits" ? "bits" : ""
            return
        }
        var end = start
        var digits = ""
        while end < scalars.count {
            let scalar = scalars[end]
            if ("0"..."9").contains(scalar) || scalar == "." {
                digits.unicodeScalars.append(scalar)
            } else if scalar != "," {
                break
            }
            end += 1
        }
        amount = Double(digits).flatMap { $0.isFinite ? $0 : nil } ?? Double(max(count, 0))
        let before = String(String.UnicodeScalarView(scalars[..<start])).trimmingWhitespace()
        let after = String(String.UnicodeScalarView(scalars[end...])).trimmingWhitespace()
        let prefix = before.split(separator: " ").last.map(String.init) ?? ""
        if let code = Self.symbols.first(where: { prefix.hasSuffix($0.0) })?.1 {
            currency = code
        } else if !prefix.isEmpty, prefix.count == 3, prefix.allSatisfy(\.isUppercase) {
            currency = prefix
        } else {
            currency = String(after.split(separator: " ").first ?? "")
        }
    }
}

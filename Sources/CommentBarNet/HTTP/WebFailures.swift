// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds

/// The messages of failed requests, one wording for the real transport and the test double, so a
/// platform's tests on the double see what the bar would show.
extension WebFailure {
    /// A URL as it may appear in a log line or on the bar: short, no query.
    package static func shown(_ url: String) -> String {
        let base = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
        return base.count > 120 ? String(base.prefix(117)) + "…" : base
    }

    package static func timedOut(_ url: String) -> WebFailure { WebFailure("\(shown(url)): timed out") }

    package static func cancelled(_ url: String) -> WebFailure { WebFailure("\(shown(url)): cancelled") }

    /// An answer other than 200 (a redirect beyond the limit is `tooManyRedirects`).
    package static func status(_ code: Int, url: String) -> WebFailure {
        code == 429 ? WebFailure("\(shown(url)): HTTP 429 (too many requests)", status: 429)
            : WebFailure("\(shown(url)): HTTP \(code)", status: code)
    }

    /// A body over `maxBytes`, known from its `Content-Length` (`length`) or found while reading.
    package static func tooLarge(_ url: String, maxBytes: Int, length: Int? = nil) -> WebFailure {
        if let length { return WebFailure("\(shown(url)): \(length) bytes is more than \(maxBytes >> 10) KiB") }
        return WebFailure("\(shown(url)): more than \(maxBytes >> 10) KiB")
    }

    package static func notHTTPS(_ url: String) -> WebFailure { WebFailure("not an https:// URL: \(shown(url))") }

    package static func redirectNotHTTPS(_ url: String) -> WebFailure {
        WebFailure("\(shown(url)): redirected somewhere that is not https://")
    }

    package static func tooManyRedirects(_ url: String, max: Int) -> WebFailure {
        WebFailure("\(shown(url)): more than \(max) redirects")
    }

    /// The address policy refused the host (`why` names it).
    package static func refused(_ url: String, _ why: String) -> WebFailure { WebFailure("\(shown(url)): refused: \(why)") }

    /// A 200 answer whose body is not the JSON the caller expects.
    package static func notJSON(_ url: String) -> WebFailure { WebFailure("\(shown(url)): not the expected JSON") }
}

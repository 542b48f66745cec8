// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds

/// The embedded `demo` stream: deterministic, offline, and showing everything
/// the bar can do (Japanese, English and emoji comments, long and short ones,
/// gifts, viewer changes, mic toggles, a deleted comment). It loops every minute.
public enum DemoScript {
    public static let loopSeconds = 60.0
    /// A fixed recording time, so `render --at` is the same on every machine.
    static let origin = 1_763_683_200.0

    public static let timeline: FeedTimeline = {
        var entries: [FeedTimeline.Entry] = []
        func add(_ at: Double, _ event: FeedEvent) { entries.append(.init(at: at, event: event)) }
        func say(_ at: Double, _ id: String, _ user: String, _ color: String, _ text: String,
                 kind: ChatLine.Kind = .comment) {
            add(at, .comment(ChatLine(id: id, user: user, text: text, color: RGBColor(hex: color), kind: kind)))
        }
        func gift(_ at: Double, _ id: String, _ user: String, _ color: String, _ name: String, _ count: Int) {
            add(at, .gift(ChatLine(id: id, user: user, text: "", color: RGBColor(hex: color),
                                   kind: .gift(name: name, count: count))))
        }
        // The stream has been live for 1:23:05 when the demo begins.
        add(0, .start(time: origin - 4985))
        add(0, .viewers(128))
        add(0, .mic(on: true))
        say(1, "d1", "さくら", "#ff7eb6", "こんばんは！今日も配信ありがとう 🌸")
        say(2.5, "d2", "GamerJoe", "#4fc3f7", "hi from Seattle 👋")
        add(3, .viewers(134))
        say(4, "d3", "たけし", "#9ccc65", "そのボス、右から回り込むと楽だよ")
        say(5.5, "d4", "mika_chan", "#ffb74d", "wwwww")
        gift(7, "g1", "ゆうき", "#ce93d8", "🌟 スター", 10)
        say(8.5, "d5", "Lena", "#80cbc4",
            "That dodge was insane, how do you even see those attacks coming?! 😂🔥")
        add(10, .viewers(141))
        say(11, "d6", "spam_bot", "#9e9e9e", "FREE GIFTS click here")
        add(12, .delete(id: "d6"))
        say(13, "d7", "はると", "#64b5f6", "初見です！操作うますぎる…👀")
        add(14, .mic(on: false))
        say(15, "d8", "GamerJoe", "#4fc3f7", "mic is muted btw 🎤")
        add(17, .mic(on: true))
        say(17.5, "d9", "さくら", "#ff7eb6", "おかえり〜")
        gift(18.5, "g2", "Lena", "#80cbc4", "🎁 Gift box", 1)
        add(19, .viewers(152))
        say(19.5, "d10", "コウ", "#ffd54f",
            "次のステージの隠しアイテム、滝の裏にあるので取り忘れないでね！あと回復は温存推奨です 🍵")
        say(24, "d11", "mika_chan", "#ffb74d", "GG!! 🎉🎉")
        add(26, .viewers(149))
        say(28, "d12", "Alex", "#aed581", "What game is this? Looks fun")
        say(31, "d13", "たけし", "#9ccc65", "👏👏👏")
        gift(34, "g3", "はると", "#64b5f6", "🍙 おにぎり", 3)
        say(37, "d14", "Lena", "#80cbc4", "ナイス！ nice combo")
        add(40, .viewers(160))
        say(42, "d15", "ゆうき", "#ce93d8", "そろそろ寝ます、おやすみ〜 🌙")
        say(46, "d16", "GamerJoe", "#4fc3f7", "one more run? 🙏")
        add(50, .viewers(157))
        say(53, "d17", "さくら", "#ff7eb6", "がんばれー！💪")
        say(57, "d18", "コウ", "#ffd54f", "次で最後？")
        return FeedTimeline(entries: entries, origin: origin)
    }()
}

// SPDX-License-Identifier: GPL-2.0-or-later
/// Chat commands (`!uptime`, `！ping`): a row whose text starts with `!` after spaces.
enum CommandFilter {
    static func isCommand(_ text: String) -> Bool {
        guard let first = text.first(where: { !$0.isWhitespace }) else { return false }
        return first == "!" || first == "！"
    }
}

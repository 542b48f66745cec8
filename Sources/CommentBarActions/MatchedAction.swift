// SPDX-License-Identifier: GPL-2.0-or-later
/// One action a row ran, with the rule that ran it: the rule has its own budget
/// (`ActionBudgets`), names what was dropped in the log, and says whether it gives way in a full
/// queue (`ActionRule.yields`).
struct MatchedAction: Sendable, Equatable {
    var rule: ActionRule
    var request: DoAction
}

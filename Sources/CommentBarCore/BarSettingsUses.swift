// SPDX-License-Identifier: GPL-2.0-or-later
/// What the settings ask of the parts that are not drawing: the filters, the flow, and with
/// several streams how viewers are counted.
extension BarSettings {
    public enum ViewersMode: String, Sendable, Codable, CaseIterable {
        case sum, each
    }

    /// The filters and highlights these settings ask for.
    public var filters: ChatFilters {
        ChatFilters(hideBots: hideBots, botNames: botNames, hideCommands: hideCommands, ngWords: ngWords, ngMode: ngMode,
                    hiddenUsers: hiddenUsers, highlightNames: highlightNames, highlightFirstMessages: highlightFirst)
    }

    /// How comments flow to the bar: paced, delayed.
    public var flowOptions: ChatFlow.Options {
        ChatFlow.Options(paceBursts: paceBursts, delaySeconds: Double(delaySeconds))
    }
}

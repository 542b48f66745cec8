// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// Why a call of the control page, or a `commentbar log`/`viewers` command, could not be done:
/// a message for a person.
public struct ChatMemoryError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// What the bar's settings ask of the memory.
public struct MemoryOptions: Sendable, Equatable {
    public var labels: RowLabels
    public var welcomeBackDays: Int
    public var nicknamesFromChat: Bool
    public var showCounts: Bool
    /// NG words apply to nicknames; the first-time badge waits for a row the filters show.
    public var filters: ChatFilters

    /// History from the log is shown when the channel's last session ended less than this long ago.
    public static let historyWithin = 600.0

    public init(labels: RowLabels = RowLabels(firstTimeSetting: "", locale: nil), welcomeBackDays: Int = 30,
                nicknamesFromChat: Bool = true, showCounts: Bool = false, filters: ChatFilters = .none) {
        self.labels = labels
        self.welcomeBackDays = welcomeBackDays
        self.nicknamesFromChat = nicknamesFromChat
        self.showCounts = showCounts
        self.filters = filters
    }
}

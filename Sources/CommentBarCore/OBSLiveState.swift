// SPDX-License-Identifier: GPL-2.0-or-later
/// What OBS itself says about the broadcast, as the shim sends it on the renderer's stdin
/// (`{"obs":{…}}`, docs/architecture.md): whether OBS is streaming or recording and
/// since when, the state of the microphone chosen in the source's properties, and OBS's UI
/// language.
/// Values from the shim are input like any other: checked and clamped here.
public struct OBSLiveState: Sendable, Equatable, Decodable {
    /// Whether OBS's streaming and recording state is known (the frontend API is there).
    public var frontend = false
    public var streaming = false
    /// Unix seconds; nil while not streaming.
    public var streamingStart: Double?
    public var recording = false
    public var recordingStart: Double?
    public var mic = MicState.unknown
    /// The level meter's step, 0 (silent) to `MicLevel.steps`; nil when the meter is off.
    public var micLevel: Int?
    /// OBS's UI locale (`ja-JP`, `en-US`); nil when not sent or not a plausible language tag.
    public var locale: String?

    public enum MicLevel {
        /// The meter's resolution: the shim sends a new level only when it moves by a step.
        public static let steps = 10
    }

    public init() {}

    enum CodingKeys: String, CodingKey {
        case frontend, streaming, recording, mic
        case streamingStart = "streaming_start"
        case recordingStart = "recording_start"
        case micLevel = "mic_level"
        case locale
    }

    /// Wrong types and unknown values fall back to "not known"; nothing here can fail.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func value<T: Decodable>(_ key: CodingKeys) -> T? { (try? c.decodeIfPresent(T.self, forKey: key)) ?? nil }
        frontend = value(.frontend) ?? false
        streaming = value(.streaming) ?? false
        recording = value(.recording) ?? false
        streamingStart = streaming ? Self.plausibleTime(value(.streamingStart)) : nil
        recordingStart = recording ? Self.plausibleTime(value(.recordingStart)) : nil
        mic = (value(.mic) as String?).flatMap(MicState.init(rawValue:)) ?? .unknown
        micLevel = (value(.micLevel) as Int?).flatMap { $0 < 0 ? nil : min($0, MicLevel.steps) }
        locale = Self.plausibleLocale(value(.locale))
    }

    /// A BCP 47-like tag: ASCII letters and digits in parts joined by `-` or `_`, at most 35 long.
    static func plausibleLocale(_ text: String?) -> String? {
        func allowed(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "-"), UInt8(ascii: "_"): true
            default: false
            }
        }
        guard let text, (1...35).contains(text.utf8.count), text.utf8.allSatisfy(allowed) else { return nil }
        return text
    }

    /// A start time must be a finite number of unix seconds after 2001 and not far in the future.
    static func plausibleTime(_ time: Double?) -> Double? {
        guard let time, time.isFinite, time > 978_307_200, time < 32_503_680_000 else { return nil }
        return time
    }
}

/// The microphone badge's states.
public enum MicState: String, Sendable, Equatable {
    /// Nothing says: no OBS mic and no feed event. Never shown as on.
    case unknown
    /// The chosen OBS source does not exist (or is not an audio source).
    case none
    case on
    case muted
}

/// What the "Clock shows" property (`clock_source`) may name.
public enum ClockSource: String, Sendable, Equatable, Codable, CaseIterable {
    /// The platform's stream start when the feed knows it, else OBS streaming, else OBS recording.
    case auto
    case streaming
    case recording
    case feed
    case off
}

/// The on-air badge: what the broadcast is doing, never the chat connection.
public enum OnAirState: Sendable, Equatable {
    case live
    case recording
    case offAir
}

/// The clock and the on-air badge, from the clock setting, the feed and OBS: one pure function.
public struct BroadcastReading: Sendable, Equatable {
    /// When the clock counts from; nil shows the idle clock.
    public var start: Double?
    public var onAir: OnAirState
    /// `clock_source` is `off`.
    public var clockHidden: Bool

    public init(start: Double?, onAir: OnAirState, clockHidden: Bool) {
        self.start = start
        self.onAir = onAir
        self.clockHidden = clockHidden
    }

    public static func resolve(_ source: ClockSource, feedStart: Double?, feedStatus: FeedStatus,
                               obs: OBSLiveState) -> BroadcastReading {
        // A feed whose stream is over has no running clock; a reconnecting one keeps its start.
        let feedClock: Double? = if case .ended = feedStatus { nil } else { feedStart }
        let start: Double?
        let followsFeed: Bool
        switch source {
        case .auto:
            followsFeed = feedClock != nil
            start = feedClock ?? (obs.streaming ? obs.streamingStart : nil) ?? (obs.recording ? obs.recordingStart : nil)
        case .feed:
            followsFeed = true
            start = feedClock
        case .streaming:
            followsFeed = false
            start = obs.streaming ? obs.streamingStart : nil
        case .recording:
            followsFeed = false
            start = obs.recording ? obs.recordingStart : nil
        case .off:
            followsFeed = false
            start = nil
        }
        let onAir: OnAirState
        if obs.streaming || (followsFeed && feedClock != nil && feedStatus == .live) {
            onAir = .live
        } else if obs.recording {
            onAir = .recording
        } else {
            onAir = .offAir
        }
        return BroadcastReading(start: start, onAir: onAir, clockHidden: source == .off)
    }
}

extension MicState {
    /// The badge: a chosen OBS mic wins; else the feed's `mic` events; else unknown.
    public static func resolve(obs: MicState, feed: Bool?) -> MicState {
        if obs != .unknown { return obs }
        return feed.map { $0 ? .on : .muted } ?? .unknown
    }
}

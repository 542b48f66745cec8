// SPDX-License-Identifier: GPL-2.0-or-later
/// Where spoken PCM goes: the shared-memory audio ring the OBS shim drains (docs/pool-abi.md),
/// or memory in the tests. Mono float samples at `sampleRate`.
public protocol SpeechAudioSink: AnyObject, Sendable {
    var sampleRate: Int { get }
    /// Frames written and not played yet.
    func queuedFrames() -> Int
    /// Writes as many of `samples` as fit and returns how many that was.
    func write(_ samples: ArraySlice<Float>) -> Int
    /// Drops what is written and not played yet (skip, pause, speech turned off).
    func discardQueued()
    /// Notes that an item to be read arrived now (the shim's latency trace); may do nothing.
    func markArrival()
}

extension SpeechAudioSink {
    public func markArrival() {}
}

// SPDX-License-Identifier: GPL-2.0-or-later
/// Linear interpolation to the ring's rate, with the volume applied, a chunk at a time: the
/// reader asks for as many frames as the ring has room for, so no resampled copy of a whole
/// item is ever made. Speech has little above 8 kHz: linear is enough.
public struct LinearResampler: Sendable {
    private let source: [Float]
    private let step: Double
    private let gain: Float
    /// Frames it gives in all.
    public let count: Int
    /// Frames given so far.
    public private(set) var produced = 0

    /// `gain`: the volume, 1 for as is.
    public init(_ audio: SpeechAudio, to rate: Int, gain: Float = 1) {
        source = audio.samples
        self.gain = gain
        if audio.sampleRate > 0, rate > 0, !audio.samples.isEmpty {
            step = Double(audio.sampleRate) / Double(rate)
            count = Int((Double(audio.samples.count) / step).rounded())
        } else {
            step = 1
            count = audio.samples.count
        }
    }

    public var isDone: Bool { produced >= count }

    /// The next frames, at most `maxFrames` (none once done).
    public mutating func next(_ maxFrames: Int) -> [Float] {
        let frames = max(0, min(maxFrames, count - produced))
        let last = source.count - 1
        var out = [Float](repeating: 0, count: frames)
        for index in 0..<frames {
            let position = Double(produced + index) * step
            let lower = min(Int(position), last)
            let upper = min(lower + 1, last)
            let fraction = Float(position - Double(lower))
            out[index] = (source[lower] + (source[upper] - source[lower]) * fraction) * gain
        }
        produced += frames
        return out
    }

    /// A whole item at `rate` (for `commentbar speak` and the tests).
    public static func resample(_ audio: SpeechAudio, to rate: Int) -> SpeechAudio {
        var resampler = LinearResampler(audio, to: rate)
        return SpeechAudio(samples: resampler.next(resampler.count), sampleRate: rate > 0 ? rate : audio.sampleRate)
    }
}

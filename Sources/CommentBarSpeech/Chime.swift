// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// The first-time sound's built-in chime: two soft bell tones a fifth apart (A5, then E6), made
/// in code at the rate asked for (the audio ring's), so no sound file is shipped. Each tone is a
/// fundamental with two quieter harmonics, a 5 ms attack and an exponential decay; the whole is
/// 0.7 s, normalized to a peak of 0.3 (about −10 dBFS, under speech's level), and fades to
/// silence at its end (no click).
enum Chime {
    static let seconds = 0.7
    /// The tones: frequency (Hz) and start (s).
    static let tones: [(frequency: Double, start: Double)] = [(880, 0), (1318.51, 0.11)]
    static let peak: Float = 0.3

    static func make(rate: Int) -> SpeechAudio {
        let rate = max(rate, 8000)
        let count = Int(seconds * Double(rate))
        var samples = [Float](repeating: 0, count: count)
        for index in 0..<count {
            let time = Double(index) / Double(rate)
            var value = 0.0
            for tone in tones where time >= tone.start {
                let local = time - tone.start
                let envelope: Double = min(1, local / 0.005) * exp(-local / 0.16)
                let phase: Double = 2 * Double.pi * tone.frequency * local
                let partials: Double = sin(phase) + 0.3 * sin(2 * phase) + 0.08 * sin(3 * phase)
                value += envelope * partials
            }
            samples[index] = Float(value * min(1, (seconds - time) / 0.05))
        }
        let loudest = samples.reduce(Float(0)) { max($0, abs($1)) }
        if loudest > 0 { samples = samples.map { $0 * peak / loudest } }
        return SpeechAudio(samples: samples, sampleRate: rate)
    }
}

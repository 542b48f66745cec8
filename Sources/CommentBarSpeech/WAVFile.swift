// SPDX-License-Identifier: GPL-2.0-or-later
/// The WAV files Open JTalk, eSpeak NG and VOICEVOX write: RIFF/WAVE with one `fmt ` chunk of
/// 16-bit PCM (format 1), mono or stereo, and one `data` chunk. Every field is checked before it
/// is used, and the audio's length is known from them before a sample is converted: anything
/// else, or more than `maxSeconds` where that is refused, is refused with a reason.
/// `commentbar speak` writes the same form.
public enum WAVFile {
    /// No engine's answer is read past this (an engine's own limit is lower).
    public static let maxBytes = 16 << 20
    /// The longest item: longer audio is refused (VOICEVOX's answer) or cut (a local engine's
    /// output, which its own time limit already bounds).
    public static let maxSeconds = 60

    /// What to do with audio longer than `maxSeconds`.
    public enum Overlong: Sendable {
        case refuse
        case cut
    }

    /// The most bytes `maxSeconds` of 16-bit audio at `rate` Hz and `channels` take, with a header.
    public static func bytesFor(maxSecondsAt rate: Int, channels: Int = 1) -> Int {
        1024 + maxSeconds * rate * 2 * channels
    }

    public static func decode(_ bytes: [UInt8], overlong: Overlong = .refuse) throws(SpeechError) -> SpeechAudio {
        guard bytes.count >= 12, bytes.count <= maxBytes else { throw SpeechError("not a WAV file: \(bytes.count) bytes") }
        guard ascii(bytes, 0) == "RIFF", ascii(bytes, 8) == "WAVE" else { throw SpeechError("not a WAV file (no RIFF/WAVE)") }
        var offset = 12
        var format: (channels: Int, rate: Int, bits: Int)?
        while offset + 8 <= bytes.count {
            let id = ascii(bytes, offset)
            let size = Int(u32(bytes, offset + 4))
            let body = offset + 8
            // VOICEVOX, eSpeak NG's --stdout and some writers leave the data size as "the rest";
            // never past the bytes there are.
            let end = min(body + size, bytes.count)
            if id == "fmt " {
                guard size >= 16, body + 16 <= bytes.count else { throw SpeechError("WAV: short fmt chunk") }
                let tag = Int(u16(bytes, body)), channels = Int(u16(bytes, body + 2))
                let rate = Int(u32(bytes, body + 4)), byteRate = Int(u32(bytes, body + 8))
                let align = Int(u16(bytes, body + 12)), bits = Int(u16(bytes, body + 14))
                guard tag == 1, bits == 16 else { throw SpeechError("WAV: format \(tag), \(bits) bits (16-bit PCM only)") }
                guard (1...2).contains(channels), (8000...192_000).contains(rate), align == channels * 2,
                      byteRate == rate * align
                else { throw SpeechError("WAV: inconsistent fmt (\(channels) ch, \(rate) Hz, align \(align))") }
                format = (channels, rate, bits)
            } else if id == "data" {
                guard let format else { throw SpeechError("WAV: data before fmt") }
                var frames = (end - body) / (2 * format.channels)
                let most = maxSeconds * format.rate
                if frames > most {
                    guard overlong == .cut else {
                        throw SpeechError("WAV: \(frames / format.rate) s of audio (more than \(maxSeconds) s): refused")
                    }
                    frames = most
                }
                var samples = [Float](repeating: 0, count: frames)
                for frame in 0..<frames {
                    var sum: Float = 0
                    for channel in 0..<format.channels {
                        sum += Float(Int16(bitPattern: u16(bytes, body + (frame * format.channels + channel) * 2)))
                    }
                    samples[frame] = sum / Float(format.channels) / 32768
                }
                return SpeechAudio(samples: samples, sampleRate: format.rate)
            }
            offset = body + size + (size & 1)
        }
        throw SpeechError("WAV: no data chunk")
    }

    /// 16-bit mono PCM.
    public static func encode(_ audio: SpeechAudio) -> [UInt8] {
        let dataBytes = audio.samples.count * 2
        var out: [UInt8] = []
        out.reserveCapacity(44 + dataBytes)
        func put32(_ value: UInt32) { out += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)] }
        func put16(_ value: UInt16) { out += [UInt8(value & 0xFF), UInt8(value >> 8)] }
        out += Array("RIFF".utf8); put32(UInt32(36 + dataBytes)); out += Array("WAVE".utf8)
        out += Array("fmt ".utf8); put32(16); put16(1); put16(1)
        put32(UInt32(audio.sampleRate)); put32(UInt32(audio.sampleRate * 2)); put16(2); put16(16)
        out += Array("data".utf8); put32(UInt32(dataBytes))
        for sample in audio.samples {
            put16(UInt16(bitPattern: Int16(max(-1, min(1, sample)) * 32767)))
        }
        return out
    }

    private static func ascii(_ bytes: [UInt8], _ at: Int) -> String {
        guard at + 4 <= bytes.count else { return "" }
        return String(decoding: bytes[at..<at + 4], as: UTF8.self)
    }

    private static func u16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    private static func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(u16(bytes, at)) | UInt32(u16(bytes, at + 2)) << 16
    }
}

// SPDX-License-Identifier: GPL-2.0-or-later
import CVorbisFile

/// Ogg Vorbis (`.ogg`, `.oga`) decoded by libvorbisfile from bytes in memory (the streamer's
/// first-time sound), mixed down to mono. The length is checked from the stream's own count
/// before decoding and again while decoding, so a file longer than `maxSeconds` is refused
/// without decoding more than that.
enum OggVorbisFile {
    /// Whether the bytes start as an Ogg stream does.
    static func sniff(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: Array("OggS".utf8))
    }

    static func decode(_ bytes: [UInt8], maxSeconds: Int) throws(SpeechError) -> SpeechAudio {
        var result: Result<SpeechAudio, SpeechError> = .failure(SpeechError("Ogg: empty"))
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var memory = cvorbis_memory(bytes: base, size: buffer.count, offset: 0)
            var file = OggVorbis_File()
            let opened = cvorbis_open_memory(&memory, &file)
            guard opened == 0 else {
                result = .failure(SpeechError("not Ogg Vorbis audio (\(Self.reason(opened)))"))
                return
            }
            defer { ov_clear(&file) }
            result = Self.read(&file, maxSeconds: maxSeconds)
        }
        return try result.get()
    }

    private static func read(_ file: inout OggVorbis_File, maxSeconds: Int) -> Result<SpeechAudio, SpeechError> {
        guard let info = ov_info(&file, -1)?.pointee else { return .failure(SpeechError("Ogg Vorbis: no stream info")) }
        let channels = Int(info.channels), rate = info.rate
        guard (1...8).contains(channels), (8000...192_000).contains(rate) else {
            return .failure(SpeechError("Ogg Vorbis: \(channels) channels at \(rate) Hz is not audio we play"))
        }
        let most = maxSeconds * rate
        let total = ov_pcm_total(&file, -1)
        if total > Int64(most) { return .failure(SpeechError(tooLong(Int(total) / rate, maxSeconds))) }
        var samples: [Float] = []
        samples.reserveCapacity(total > 0 ? Int(total) : rate)
        var section: Int32 = 0
        var pcm: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>?
        while true {
            let frames = ov_read_float(&file, &pcm, 4096, &section)
            if frames == 0 { break }
            // A hole in the stream (OV_HOLE) is skipped, as players do; anything else ends it.
            if frames == Int(OV_HOLE) { continue }
            guard frames > 0, let planes = pcm else {
                return .failure(SpeechError("Ogg Vorbis: damaged stream (\(reason(Int32(truncatingIfNeeded: frames))))"))
            }
            // A chained file may change its channels: this link's count.
            let linkChannels = Int(ov_info(&file, -1)?.pointee.channels ?? Int32(channels))
            guard samples.count + frames <= most else { return .failure(SpeechError(tooLong(maxSeconds + 1, maxSeconds))) }
            for frame in 0..<frames {
                var sum: Float = 0
                for channel in 0..<max(1, linkChannels) { sum += planes[channel]?[frame] ?? 0 }
                samples.append(sum / Float(max(1, linkChannels)))
            }
        }
        guard !samples.isEmpty else { return .failure(SpeechError("Ogg Vorbis: no audio in it")) }
        return .success(SpeechAudio(samples: samples, sampleRate: rate))
    }

    static func tooLong(_ seconds: Int, _ maxSeconds: Int) -> String {
        "\(seconds) s long; at most \(maxSeconds) s"
    }

    private static func reason(_ code: Int32) -> String {
        switch code {
        case OV_ENOTVORBIS: "OV_ENOTVORBIS"
        case OV_EBADHEADER: "OV_EBADHEADER"
        case OV_EVERSION: "OV_EVERSION"
        case OV_EREAD: "OV_EREAD"
        case OV_EFAULT: "OV_EFAULT"
        case OV_EBADLINK: "OV_EBADLINK"
        case OV_EINVAL: "OV_EINVAL"
        default: "error \(code)"
        }
    }
}

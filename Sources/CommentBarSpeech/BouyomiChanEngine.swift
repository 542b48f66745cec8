// SPDX-License-Identifier: GPL-2.0-or-later
import NIOCore
import NIOPosix

/// 棒読みちゃん's TCP command protocol ("アプリ連携", usually 127.0.0.1:50001): one connection
/// per item carrying the talk command, little-endian: Int16 command 0x0001, Int16 speed,
/// Int16 tone, Int16 volume (-1: its own settings), Int16 voice (0: its own), UInt8 encoding
/// (0: UTF-8), Int32 length, then the text. 棒読みちゃん speaks it itself: no audio comes back.
struct BouyomiChanEngine: SpeechEngine {
    var name: String { "bouyomichan" }
    let server: String
    static let defaultPort = 50001
    static let timeout = TimeAmount.seconds(5)

    /// 棒読みちゃん's own voices: 1, 2 women's, 3, 4 men's, 5 neutral (6-8 are robots).
    static let voices = ["1", "3", "2", "4", "5"]

    func cast(_ options: VoiceOptions, pick: UInt32, language: SpeechLanguage) async -> VoiceOptions {
        var options = options
        options.voice = Self.choose(Self.voices, pick)
        return options
    }

    static func talkCommand(_ text: String, options: VoiceOptions) -> [UInt8] {
        var out: [UInt8] = []
        func put16(_ value: Int16) { out += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)] }
        let bytes = Array(text.utf8)
        put16(0x0001)
        put16(options.rate == 100 ? -1 : Int16(clamping: options.rate))
        put16(-1)
        put16(options.volume == 100 ? -1 : Int16(clamping: options.volume))
        put16(Int16(options.voice.trimmingTrailingAndLeadingSpaces()) ?? 0)
        out.append(0)
        let length = UInt32(bytes.count)
        out += [UInt8(length & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length >> 16 & 0xFF), UInt8(length >> 24)]
        return out + bytes
    }

    func speak(_ text: String, language: SpeechLanguage, options: VoiceOptions) async throws(SpeechError)
        -> SpeechAudio?
    {
        let address = try SpeechServer.parse(server, defaultPort: Self.defaultPort)
        let command = Self.talkCommand(inputBound.bounded(text), options: options)
        do {
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(Self.timeout)
                .connect(host: address.host, port: address.port).get()
            // A server that stops reading must not hold the item: the channel is closed at the deadline.
            let deadline = channel.eventLoop.scheduleTask(in: Self.timeout) { channel.close(promise: nil) }
            defer { deadline.cancel() }
            try await channel.writeAndFlush(ByteBuffer(bytes: command))
            try await channel.close()
        } catch {
            throw SpeechError("棒読みちゃん at \(address.authority): \(error)")
        }
        return nil
    }
}

// SPDX-License-Identifier: GPL-2.0-or-later
import Dispatch
import Glibc

/// eSpeak NG through libespeak-ng, opened with dlopen the first time something is spoken, so a
/// renderer with speech off never loads it. The library is one global synthesizer: every call
/// runs on one serial queue (never the frame loop), synthesizing to PCM through its callback
/// (AUDIO_OUTPUT_SYNCHRONOUS).
final class ESpeakEngine: SpeechEngine, @unchecked Sendable {
    // @unchecked: every mutable field is touched only on `queue`.
    static let shared = ESpeakEngine()
    var name: String { "espeak" }

    private let queue = DispatchQueue(label: "commentbar.espeak")
    private var library: Library?
    private var sampleRate = 22050

    /// speak_lib.h: AUDIO_OUTPUT_SYNCHRONOUS, espeakCHARS_UTF8, POS_CHARACTER, espeakRATE, espeakVOLUME.
    private static let audioOutputSynchronous: Int32 = 2
    private static let charsUTF8: UInt32 = 1
    private static let positionCharacter: Int32 = 1
    private static let parameterRate: Int32 = 1
    private static let parameterVolume: Int32 = 2
    private static let normalRate = 175
    /// A text that makes more than this much audio is cut there (bounded memory).
    static let maxSeconds = 60

    typealias SynthCallback = @convention(c) (UnsafeMutablePointer<Int16>?, Int32, UnsafeMutableRawPointer?) -> Int32

    typealias SynthFunction = @convention(c) (UnsafeRawPointer?, Int, UInt32, Int32, UInt32, UInt32,
                                              UnsafeMutablePointer<UInt32>?, UnsafeMutableRawPointer?) -> Int32
    typealias SetVoiceFunction = @convention(c) (UnsafePointer<CChar>?) -> Int32
    typealias SetParameterFunction = @convention(c) (Int32, Int32, Int32) -> Int32

    private struct Library {
        var handle: UnsafeMutableRawPointer
        var synth: SynthFunction
        var setVoiceByName: SetVoiceFunction
        var setParameter: SetParameterFunction
    }

    /// The samples of the synthesis under way (only ever touched on `queue`, through the callback).
    nonisolated(unsafe) static var collected: [Int16] = []
    nonisolated(unsafe) static var limit = 0

    func speak(_ text: String, language: SpeechLanguage, options: VoiceOptions) async throws(SpeechError)
        -> SpeechAudio?
    {
        let result: Result<SpeechAudio, SpeechError> = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.synthesize(text, language: language, options: options)) }
        }
        return try result.get()
    }

    private func load() -> Result<Library, SpeechError> {
        if let library { return .success(library) }
        guard let handle = dlopen("libespeak-ng.so.1", RTLD_NOW | RTLD_LOCAL) else {
            return .failure(SpeechError("eSpeak NG is not installed (libespeak-ng1): \(String(cString: dlerror()))"))
        }
        func symbol<T>(_ name: String, as _: T.Type) -> T? {
            dlsym(handle, name).map { unsafeBitCast($0, to: T.self) }
        }
        typealias Initialize = @convention(c) (Int32, Int32, UnsafePointer<CChar>?, Int32) -> Int32
        typealias SetCallback = @convention(c) (SynthCallback?) -> Void
        guard let initialize = symbol("espeak_Initialize", as: Initialize.self),
              let setCallback = symbol("espeak_SetSynthCallback", as: SetCallback.self),
              let synth = symbol("espeak_Synth", as: SynthFunction.self),
              let setVoice = symbol("espeak_SetVoiceByName", as: SetVoiceFunction.self),
              let setParameter = symbol("espeak_SetParameter", as: SetParameterFunction.self)
        else {
            dlclose(handle)
            return .failure(SpeechError("libespeak-ng lacks the functions CommentBar uses"))
        }
        let rate = initialize(Self.audioOutputSynchronous, 0, nil, 0)
        guard rate > 0 else {
            dlclose(handle)
            return .failure(SpeechError("eSpeak NG did not start (its data, espeak-ng-data, may be missing)"))
        }
        sampleRate = Int(rate)
        setCallback { samples, count, _ in
            guard let samples, count > 0 else { return 0 }
            if ESpeakEngine.collected.count + Int(count) > ESpeakEngine.limit { return 1 }  // stop: too long
            ESpeakEngine.collected.append(contentsOf: UnsafeBufferPointer(start: samples, count: Int(count)))
            return 0
        }
        let loaded = Library(handle: handle, synth: synth, setVoiceByName: setVoice, setParameter: setParameter)
        library = loaded
        return .success(loaded)
    }

    private func synthesize(_ text: String, language: SpeechLanguage, options: VoiceOptions)
        -> Result<SpeechAudio, SpeechError>
    {
        let library: Library
        switch load() {
        case .success(let loaded): library = loaded
        case .failure(let error): return .failure(error)
        }
        let voice = options.voice.isEmpty ? language.rawValue : options.voice
        guard library.setVoiceByName(voice) == 0 else {
            return .failure(SpeechError("eSpeak NG has no voice \"\(voice.prefix(40))\""))
        }
        _ = library.setParameter(Self.parameterRate, Int32(min(max(Self.normalRate * options.rate / 100, 80), 450)), 0)
        _ = library.setParameter(Self.parameterVolume, 100, 0)
        Self.collected = []
        Self.limit = sampleRate * Self.maxSeconds
        var bytes = Array(text.utf8CString)
        let status = bytes.withUnsafeMutableBytes {
            library.synth($0.baseAddress, $0.count, 0, Self.positionCharacter, 0, Self.charsUTF8, nil, nil)
        }
        let samples = Self.collected
        Self.collected = []
        guard status == 0 else { return .failure(SpeechError("eSpeak NG could not speak this text (error \(status))")) }
        guard !samples.isEmpty else { return .failure(SpeechError("eSpeak NG made no sound for this text")) }
        return .success(SpeechAudio(samples: samples.map { Float($0) / 32768 }, sampleRate: sampleRate))
    }
}

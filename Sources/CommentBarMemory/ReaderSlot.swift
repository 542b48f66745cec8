// SPDX-License-Identifier: GPL-2.0-or-later

/// A reader opened when first needed (after the writer made the file), again after the file
/// was replaced, and at most every few seconds while it cannot be. Kept behind its user's lock.
struct ReaderSlot {
    var reader: ChatReader?
    var fileReady = false
    var retryAt: ContinuousClock.Instant?

    mutating func get(_ path: String) -> ChatReader? {
        if let reader { return reader }
        guard fileReady else { return nil }
        let now = ContinuousClock.now
        if let retryAt, now < retryAt { return nil }
        do {
            reader = try ChatReader(path: path)
        } catch {
            retryAt = now + .seconds(5)
        }
        return reader
    }

    /// The writer opened the file (again): the next use opens a reader on it.
    mutating func reset() {
        reader = nil
        fileReady = true
        retryAt = nil
    }
}

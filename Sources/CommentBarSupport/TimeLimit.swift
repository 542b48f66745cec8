// SPDX-License-Identifier: GPL-2.0-or-later
/// One deadline around a whole piece of async work (a request, its body and all that follows):
/// the work's result, or nil when it had not finished in time. The work is then cancelled and
/// awaited, so it must end promptly when cancelled (AsyncHTTPClient's requests and bodies do).
public enum TimeLimit {
    public static func run<T: Sendable>(_ limit: Duration, _ work: @escaping @Sendable () async -> T) async -> T? {
        await withTaskGroup(of: T?.self) { group in
            group.addTask { await work() }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}

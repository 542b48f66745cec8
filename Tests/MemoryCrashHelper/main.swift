// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarMemory
import Glibc
import Logging

// The kill -9 test's child: writes comments through the memory at a steady rate, as the bar
// receives them, and after each one appends "NUMBER UNIXTIME" to a file (write(2): a line
// written is in the page cache even if the process is killed next). Runs until killed.
// Usage: commentbar-memory-crash-helper DATABASE LINESFILE RATE
let arguments = CommandLine.arguments
func fail(_ message: String) -> Never {
    _ = (message + "\n").withCString { write(2, $0, strlen($0)) }
    exit(2)
}
guard arguments.count == 4, let rate = Double(arguments[3]), rate > 0 else {
    fail("usage: commentbar-memory-crash-helper DATABASE LINESFILE RATE")
}
func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}
let out = open(arguments[2], O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0o644)
guard out >= 0 else { fail("cannot open \(arguments[2])") }
let memory = ChatMemory(path: arguments[1], log: Logger(label: "crash-helper"))
let channel = ChannelRef(platform: "test", channel: "crash")
let session = memory.openSession(channel, now: now())
let start = now()
var number = 0
while true {
    number += 1
    let viewer = "viewer\(number % 50)"
    let line = ChatLine(id: "m\(number)", user: viewer, login: viewer, text: "comment \(number): 初見です、よろしく")
    _ = memory.receive(line, session: session, channel: channel, options: MemoryOptions(), now: now())
    let record = "\(number) \(now())\n"
    _ = record.withCString { write(out, $0, strlen($0)) }
    let next = start + Double(number) / rate
    let wait = next - now()
    if wait > 0 { usleep(UInt32(wait * 1_000_000)) }
}

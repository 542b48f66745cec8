// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import CommentBarControl
import CommentBarCore
import CommentBarServe
import Glibc

/// `commentbar control-url`: a one-time link to the control page of the renderer serving
/// `--port` (asked of it with the token once it proved it is the token's renderer; the token
/// never leaves this process otherwise: not in the link, not in a command line); `--open` opens
/// it in the default browser through a file only this user can read (`PageTrampoline`: the link
/// is in no command line either), `--rotate` first makes a new token (the old one stops working
/// at once, open pages are told).
struct ControlURLCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "control-url",
        abstract: "Print a one-time link to the control page (the source's Control port; --open opens it).",
        discussion: "The link works once, within a minute: it logs the browser in and is then spent. The "
            + "source must be showing in OBS with \"Control page\" ticked. Programs use the token file with an "
            + "Authorization header instead (docs/control-api.md).")

    @Option(help: "The source's Control port (control_port).") var port = BarSettings().controlPort
    @Flag(help: "Open the page in the default browser (xdg-open, through a private file) instead of printing the link.") var open = false
    @Flag(help: "Make a new control token first: the old one stops working, open pages must be opened again.")
    var rotate = false

    func validate() throws {
        guard (1024...65535).contains(port) else { throw ValidationError("--port is 1024 to 65535") }
    }

    func run() async throws {
        let token: String
        do {
            if rotate {
                token = try ControlToken.rotate()
                POSIXIO.writeAll("control token: a new one was made; the old one no longer works\n", fd: STDERR_FILENO)
                // Rotating is the whole job unless a page is wanted too.
                guard open else { return }
            } else {
                let loaded = try ControlToken.load()
                if let note = loaded.note { POSIXIO.writeAll(note + "\n", fd: STDERR_FILENO) }
                token = loaded.token
            }
        } catch {
            throw CLIError(error.description)
        }
        if case .unbound(let pid) = ControlPortStatus.read(port: port) {
            throw CLIError("control page: the renderer (process \(pid)) could not bind port \(port): another program has "
                            + "it; choose another Control port in the source's properties")
        }
        let link: String
        do {
            link = try await ControlPageLink.request(port: port, token: token)
        } catch {
            throw CLIError("control page: \(error.description)")
        }
        guard open else {
            print(link)
            return
        }
        // The link goes into a file only this user can read, not onto xdg-open's command line.
        let address: String
        do {
            address = try PageTrampoline.write(link: link)
        } catch {
            throw CLIError("control page: \(error.description)")
        }
        if let problem = await BrowserOpener.runProgram(["xdg-open", address]) {
            throw CLIError("cannot open the browser: \(problem)")
        }
    }
}

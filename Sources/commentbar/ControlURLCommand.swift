// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import CommentBarControl
import CommentBarCore
import CommentBarServe
import Glibc

/// `commentbar control-url`: a one-time link to the control page of the renderer serving
/// `--port` (asked of it with the token, which never leaves this process: not in the link, not
/// in a command line); `--open` opens it in the default browser, `--rotate` first makes a new
/// token (the old one stops working at once, open pages are told).
struct ControlURLCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "control-url",
        abstract: "Print a one-time link to the control page (the source's Control port; --open opens it).",
        discussion: "The link works once, within a minute: it logs the browser in and is then spent. The "
            + "source must be showing in OBS with \"Control page\" ticked. Programs use the token file with an "
            + "Authorization header instead (docs/control-api.md).")

    @Option(help: "The source's Control port (control_port).") var port = BarSettings().controlPort
    @Flag(help: "Open the page in the default browser (xdg-open) instead of printing the link.") var open = false
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
        if let problem = await BrowserOpener.runProgram(["xdg-open", link]) {
            throw CLIError("cannot open the browser: \(problem)")
        }
    }
}

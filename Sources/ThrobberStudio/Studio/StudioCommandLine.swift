import Foundation
import Throbber

/// The command and the job that render exactly what the studio showed: "copy as command" and
/// "copy as job JSON", and the job an export runs.
public enum StudioCommandLine {
    /// `throbber render REF --set NAME=VALUE … --scale S --start T --frames 1 -o frames`: the
    /// frame at `state.t` as `render` writes it, every word quoted for a POSIX shell where needed.
    /// `state` is as `StudioState.ordered(for:)` left it (its parameters in the model's order).
    public static func command(_ state: StudioState, reference: String) -> String {
        var words = ["throbber", "render", reference]
        for (name, value) in state.parameters { words += ["--set", "\(name)=\(value)"] }
        if let background = state.background { words += ["--background", background] }
        if state.scale != 1 { words += ["--scale", formatShortest(state.scale)] }
        words += ["--start", formatShortest(state.t), "--frames", "1", "-o", "frames"]
        return words.map(shellQuoted).joined(separator: " ")
    }

    /// A job file with one render: the state's scene, parameters, scale and background, from
    /// `start` for `frames` frames at `fps` (or a seamless loop), into `outputs` (JSON objects).
    public static func job(_ state: StudioState, reference: String, start: Double, frames: Int?, fps: Double?,
                           outputs: [[(String, String)]]) -> String {
        var render: [(String, String)] = [("scene", JSONOutput.quoted(reference))]
        if !state.parameters.isEmpty {
            render.append(("parameters", object(state.parameters.map { ($0.name, JSONOutput.quoted($0.value)) }, indent: 6)))
        }
        if state.scale != 1 { render.append(("scale", formatShortest(state.scale))) }
        if let background = state.background { render.append(("background", JSONOutput.quoted(background))) }
        if let fps { render.append(("fps", formatShortest(fps))) }
        if state.loop {
            render.append(("loop", "true"))
        } else {
            if start != 0 { render.append(("start", formatShortest(start))) }
            if let frames { render.append(("frames", String(frames))) }
        }
        let outputList = "[\n" + outputs.map { "        " + object($0, indent: 8, inline: true) }.joined(separator: ",\n") + "\n      ]"
        render.append(("outputs", outputList))
        return "{\n  \"renders\": [\n    " + object(render, indent: 4) + "\n  ]\n}\n"
    }

    /// The job "copy as job JSON" gives: the shown frame as one PNG.
    public static func frameJob(_ state: StudioState, reference: String) -> String {
        job(state, reference: reference, start: state.t, frames: 1, fps: nil,
            outputs: [[("type", JSONOutput.quoted("png")), ("pattern", JSONOutput.quoted("frames/{name}_%05d.png"))]])
    }

    /// A JSON object of already-written values, one member a line (or on one line).
    static func object(_ members: [(String, String)], indent: Int, inline: Bool = false) -> String {
        if inline { return "{ " + members.map { "\(JSONOutput.quoted($0.0)): \($0.1)" }.joined(separator: ", ") + " }" }
        let pad = String(repeating: " ", count: indent + 2)
        return "{\n" + members.map { "\(pad)\(JSONOutput.quoted($0.0)): \($0.1)" }.joined(separator: ",\n")
            + "\n" + String(repeating: " ", count: indent) + "}"
    }

    /// `word` as a POSIX shell reads it back: as it is when it holds only characters no shell
    /// treats specially (and does not start a comment or a home directory), else in single quotes.
    public static func shellQuoted(_ word: String) -> String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./#-")
        if !word.isEmpty, word.allSatisfy({ plain.contains($0) }), !word.hasPrefix("#") { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

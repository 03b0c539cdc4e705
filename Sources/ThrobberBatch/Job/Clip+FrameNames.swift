import Foundation

extension Clip {
    /// The PNG pattern a sheet's frame names follow when the clip writes no PNG frames.
    public static let defaultFramePattern = "{name}@{scale}x_%05d.png"

    /// The name of frame `k` in a sheet's atlas: the file name, without its directory and
    /// extension, that the clip's first `png` output gives frame k (`frames/ring_007.png` →
    /// `ring_007`), or that the default pattern `{name}@{scale}x_%05d.png` would give it
    /// (`ring@2x_00007`), so that a sprite is found under the name of its frame file.
    ///
    /// A pattern whose frame number sits in a directory (`f%03d/ring.png`) names every frame
    /// alike; the names then follow the default pattern instead, since an atlas's names are keys.
    public func frameName(_ k: Int) -> String { frameNames(k..<k + 1)[0] }

    /// The names of `frames`, as `frameName` gives each.
    public func frameNames(_ frames: Range<Int>) -> [String] {
        let pattern = framePatternForNames
        return frames.map { FramePattern.frameName(pattern.path(name: name, scene: scene.model.id, scale: scene.scale, frame: $0)) }
    }

    /// The first PNG output's pattern, unless it names two frames alike; else the default pattern.
    private var framePatternForNames: FramePattern {
        for case .png(let pattern, _) in outputs {
            let names = [0, 1].map { FramePattern.frameName(pattern.path(name: name, scene: scene.model.id, scale: scene.scale, frame: $0)) }
            if names[0] != names[1] { return pattern }
            break
        }
        // The default pattern has exactly one directive: it parses.
        return try! FramePattern(Clip.defaultFramePattern, frameDirective: true)
    }
}

extension FramePattern {
    /// A frame file's last path component without its extension: `out/ring@2x_00007.png` →
    /// `ring@2x_00007` (a leading dot starts a name, not an extension).
    static func frameName(_ file: String) -> String {
        let name = file.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? file
        if let dot = name.lastIndex(of: "."), dot > name.startIndex { return String(name[..<dot]) }
        return name
    }
}

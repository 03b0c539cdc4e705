import Foundation
import Testing
import Throbber
import ThrobberText

/// SPEC §7 "Layout" and "Check values": SVProgressHUD's frame around shaped status lines (Roboto,
/// defaults, scale 1), and UIKit's ease-in-out with the show animation's α and scale per frame.
struct HUDLayoutTests {
    /// Each state's content as the `hud` scene's defaults make it (radius 24 alone, 18 with a
    /// status; thickness 2; imageSize 28).
    static func content(_ state: String, status: Bool) -> HUDLayout.Content {
        switch state {
        case "ring", "progress": .ring(radius: status ? 18 : 24, thickness: 2)
        case "text": .none
        default: .image(size: 28)
        }
    }

    static func layout(_ state: String, _ status: String?) throws -> HUDLayout {
        let lines = try status.map { try TextShaper().lines($0, role: .ui, size: 15, maxWidth: HUDLayout.wrapWidth) } ?? []
        return HUDLayout(content: content(state, status: status != nil), lineWidths: lines.map(\.width), fontSize: 15)
    }

    @Test(arguments: [("ring", nil, 84.0, 84.0), ("ring", "Doing Stuff", 99, 98), ("progress", "Loading", 78, 98),
                      ("success", "Great Success!", 125, 78), ("success", nil, 52, 52), ("text", "Loading", 78, 42),
                      ("info", "Useful Information.", 153, 78), ("error", "Failed with Error", 132, 78)] as [(String, String?, Double, Double)])
    func hudSizes(state: String, status: String?, width: Double, height: Double) throws {
        let hud = try HUDLayoutTests.layout(state, status)
        #expect(hud.width == width && hud.height == height, "\(state) \(status ?? "–"): \(hud.width) × \(hud.height)")
    }

    @Test func positionsOfContentAndLabel() throws {
        let alone = try HUDLayoutTests.layout("ring", nil)
        #expect(alone.contentCenterX == 42 && alone.contentCenterY == 42 && alone.contentWidth == 60)
        let ring = try HUDLayoutTests.layout("ring", "Doing Stuff")
        #expect(ring.contentCenterX == 49.5 && ring.contentCenterY == 36 && ring.contentWidth == 48)
        let line = try #require(ring.lines.first)
        #expect(abs(line.penX - 12.0073) < 1e-4, "\(line.penX)")
        #expect(abs(line.baseline - 82.3320) < 1e-4, "\(line.baseline)")
        let success = try HUDLayoutTests.layout("success", "Great Success!")
        // The image box (48.5, 12)–(76.5, 40) and the label's centre (62.5, 57).
        #expect(success.contentCenterX - 14 == 48.5 && success.contentCenterY - 14 == 12)
        #expect(success.contentCenterX + 14 == 76.5 && success.contentCenterY + 14 == 40)
        #expect(success.width / 2 == 62.5 && success.labelCenterY == 57)
        let text = try HUDLayoutTests.layout("text", "Loading")
        #expect(text.labelCenterY == 21)
    }

    /// A status wider than 200 pt wraps, and the HUD grows by a line pitch per line; a minimum size
    /// wins where it is larger and moves the content down to centre the whole.
    @Test func wrappingAndMinimumSize() throws {
        let long = try HUDLayoutTests.layout("ring", "Uploading 24 photos to your shared album, this may take a while")
        #expect(long.lines.count >= 2)
        #expect(long.labelWidth <= HUDLayout.wrapWidth)
        #expect(long.height == 24 + (Double(long.lines.count) * 15 * HUDLayout.lineHeight - 1e-9).rounded(.up) + 48 + 8)
        for (k, line) in long.lines.enumerated().dropFirst() {
            #expect(abs(line.baseline - long.lines[k - 1].baseline - 15 * HUDLayout.lineHeight) < 1e-12)
        }
        let roomy = HUDLayout(content: .ring(radius: 18, thickness: 2), lineWidths: [53.6060], fontSize: 15,
                              minimumWidth: 200, minimumHeight: 200)
        #expect(roomy.width == 200 && roomy.height == 200)
        #expect(roomy.contentCenterY == (200 - 48 - 8 - 18) / 2 + 24)
    }

    @Test func easeInOutCheckValues() {
        #expect(abs(UIKitTiming.easeInOut(0.25) - 0.129162) < 1e-6)
        #expect(abs(UIKitTiming.easeInOut(0.5) - 0.5) < 1e-9)
        #expect(abs(UIKitTiming.easeInOut(0.75) - 0.870838) < 1e-6)
        #expect(UIKitTiming.easeInOut(0) == 0 && UIKitTiming.easeInOut(1) == 1)
        #expect(UIKitTiming.easeInOut(-3) == 0 && UIKitTiming.easeInOut(7) == 1)
        // Monotone over the whole range.
        let values = (0...1000).map { UIKitTiming.easeInOut(Double($0) / 1000) }
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 })
    }

    /// Show at 60 fps with fadeIn 0.15: frames 0…9, α = e(x) and HUD scale 1.3 − 0.3·e(x).
    @Test func showAnimationPerFrame() {
        let alpha = [0, 0.024455, 0.101415, 0.231775, 0.404963, 0.595037, 0.768225, 0.898585, 0.975545, 1]
        let scale = [1.3, 1.292664, 1.269575, 1.230468, 1.178511, 1.121489, 1.069532, 1.030425, 1.007336, 1]
        for k in 0..<10 {
            let e = UIKitTiming.easeInOut((Double(k) / 60) / 0.15)
            #expect(abs(e - alpha[k]) < 1e-6, "frame \(k): α \(e)")
            #expect(abs(1.3 - 0.3 * e - scale[k]) < 1e-6, "frame \(k): scale \(1.3 - 0.3 * e)")
        }
    }
}

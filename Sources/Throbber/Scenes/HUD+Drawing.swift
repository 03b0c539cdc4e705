import Foundation

/// The HUD's items (SPEC §7 paint order): mask, body, content (ring, progress or glyph) and the
/// status, scaled about the HUD's centre and faded with it.
extension HUD {
    public func drawItems(for state: FrameState, scale: Double, width: Int, height: Int) -> [DrawItem] {
        drawItems(for: state, scale: scale, width: width, height: height, text: nil)
    }

    public func drawItems(for state: FrameState, scale s: Double, width w: Int, height h: Int, text: LaidOutText?) -> [DrawItem] {
        guard state.visible else { return [] }
        let a = state.alpha, k = state.hudScale
        let hud = layout
        let centre = hudCenter(hud)
        /// A point of the HUD's frame (pt, origin its top-left) on the canvas in px, scaled about the centre.
        func place(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
            ((centre.x + k * (x - hud.width / 2)) * s, (centre.y + k * (y - hud.height / 2)) * s)
        }
        func faded(_ color: RGBA) -> RGBA { color.withAlpha(color.a * a) }
        var items: [DrawItem] = []

        // SPEC §7 paint order: mask, body, content, label.
        let canvas = canvasSize
        switch mask {
        case "black", "custom":
            let color = mask == "black" ? HUD.blackMask : (maskColor ?? HUD.blackMask)
            items.append(DrawItem("mask", Boxes([QuadInstance(centerX: canvas.width / 2 * s, centerY: canvas.height / 2 * s,
                                                              halfX: canvas.width / 2 * s, halfY: canvas.height / 2 * s, rotation: 0,
                                                              cornerRadius: 0, color: faded(color))], width: w, height: h)))
        case "gradient":
            items.append(DrawItem("mask", RadialGradient(centerX: canvas.width / 2 * s, centerY: canvas.height / 2 * s,
                                                         reach: min(canvas.width, canvas.height) * s,
                                                         color: RGBA(0, 0, 0, HUD.gradientAlpha * a), width: w, height: h)))
        default:
            break
        }

        let body = place(hud.width / 2, hud.height / 2)
        let corner = min(hudCornerRadius, hud.width / 2, hud.height / 2)
        items.append(DrawItem("hud", Boxes([QuadInstance(centerX: body.x, centerY: body.y, halfX: hud.width / 2 * k * s,
                                                         halfY: hud.height / 2 * k * s, rotation: 0, cornerRadius: corner * k * s,
                                                         color: faded(resolvedHudColor))], width: w, height: h)))

        let c = place(hud.contentCenterX, hud.contentCenterY)
        let ring = faded(resolvedRingColor)
        switch resolvedState {
        case .ring, .progress:
            let r = (hasStatus ? statusRadius : radius) * k * s, lineWidth = thickness * k * s
            func arc(_ id: ItemID, start: Double, sweep: Double, mask: Double? = nil, color: RGBA) -> DrawItem {
                DrawItem(id, Arc(centerX: c.x, centerY: c.y, radius: r, lineWidth: lineWidth, start: start, sweep: sweep,
                                 maskRotation: mask, color: color, width: w, height: h))
            }
            if resolvedState == .ring {
                let spinner = Ring.spinnerArc(turn: state.turn)
                items.append(arc("ring", start: spinner.start, sweep: spinner.sweep, mask: spinner.maskRotation, color: ring))
            } else {
                let p = min(max(state.progress, 0), 1)
                if p > 0 { items.append(arc("progress", start: 0, sweep: 2 * .pi * p, color: ring)) }
                items.append(arc("track", start: 0, sweep: 2 * .pi, color: faded(resolvedRingColor.withAlpha(resolvedRingColor.a * 0.1))))
            }
        case .success, .error, .info:
            items += glyph(resolvedState, at: c, unit: imageSize / 28 * k * s, color: ring, width: w, height: h)
        case .text:
            break
        }

        if let text, let label = text.item(HUD.statusID, color: faded(resolvedTextColor), width: w, height: h) {
            items.append(label)
        }
        return items
    }

    /// The success, error or info glyph (SPEC §7 "Glyphs") in its 28 × 28 frame centred on `c`
    /// (px), `unit` px per frame unit.
    func glyph(_ state: State, at c: (x: Double, y: Double), unit: Double, color: RGBA, width w: Int, height h: Int) -> [DrawItem] {
        guard unit > 0 else { return [] }
        func p(_ x: Double, _ y: Double) -> (Double, Double) { (c.x + (x - 14) * unit, c.y + (y - 14) * unit) }
        func segment(_ a: (Double, Double), _ b: (Double, Double)) -> (x0: Double, y0: Double, x1: Double, y1: Double) {
            (a.0, a.1, b.0, b.1)
        }
        switch state {
        case .success:
            let (a, b, d) = (p(1.43, 15.51), p(8.46, 22.58), p(26.57, 3.43))
            return [DrawItem("success", Strokes(segments: [segment(a, b), segment(b, d)], lineWidth: 1.51 * unit, color: color, width: w, height: h))]
        case .error:
            return [DrawItem("error", Strokes(segments: [segment(p(2.44, 2.44), p(25.56, 25.56)), segment(p(25.56, 2.44), p(2.44, 25.56))],
                                              lineWidth: 1.53 * unit, color: color, width: w, height: h))]
        case .info:
            let centre = p(14, 14), dot = p(14, 7.5)
            return [
                DrawItem("info-circle", Arc(centerX: centre.0, centerY: centre.1, radius: 12.5 * unit, lineWidth: 0.99 * unit, start: 0,
                                            sweep: 2 * .pi, color: color, width: w, height: h)),
                DrawItem("info-dot", Disc(centerX: dot.0, centerY: dot.1, radius: 0.79 * unit, color: color, width: w, height: h)),
                DrawItem("info-stem", Strokes(segments: [segment(p(14, 11.02), p(14, 20.94))], lineWidth: 1.49 * unit, color: color,
                                              width: w, height: h)),
            ]
        case .ring, .progress, .text:
            return []
        }
    }
}

import Throbber

/// A Lottie scene's parameters: its slots, the segment played and what to do with features
/// Throbber does not draw.
extension LottieScene {
    public var parameters: [SceneParameter<LottieScene>] {
        var list: [SceneParameter<LottieScene>] = []
        // The archive's animation and theme first: each sets the slots, so a slot set after
        // them (as `assignments` replays them) keeps its value.
        if let archive, archive.contents.animations.count > 1 {
            list.append(SceneParameter("animation", .choice(\LottieScene.animationID, archive.contents.animations.map(\.id)),
                                       "the dotLottie archive's animation played"))
        }
        if let archive, !archive.contents.themes.isEmpty {
            list.append(SceneParameter("theme", .choice(\LottieScene.theme, ["none"] + archive.contents.themes.map(\.id)),
                                       "a dotLottie theme: sets the slots its rules name"))
        }
        for (k, slot) in animation.slots.enumerated() {
            let name = Self.parameterName(slot.id)
            switch slot.kind {
            case .color:
                list.append(SceneParameter(name, .color(\LottieScene[color: k]), "slot '\(ThrobberError.echoed(slot.id))': a colour"))
            case .number:
                let d = slot.value[0]
                list.append(SceneParameter(name, .number(\LottieScene[number: k], .closed(-LottieReader.largestNumber, LottieReader.largestNumber)),
                                           "slot '\(ThrobberError.echoed(slot.id))': a number (opacity in percent, angles in degrees)",
                                           sampling: .linear(min(0, -2 * abs(d)), max(100, 2 * abs(d)))))
            case .vector:
                list.append(SceneParameter(name, .pair(\LottieScene[pair: k], .closed(-LottieReader.largestNumber, LottieReader.largestNumber),
                                                       .offset, unsetMeaning: nil),
                                           "slot '\(ThrobberError.echoed(slot.id))': a point or size, X,Y"))
            }
        }
        if !animation.markers.isEmpty {
            list.append(SceneParameter("marker", .choice(\LottieScene.marker, ["none"] + animation.markers.map(\.name)),
                                       "the named segment played, or none for the whole timeline"))
        }
        if !animation.skipped.isEmpty {
            list.append(SceneParameter("unsupported", .choice(\LottieScene.unsupported, ["refuse", "skip"]),
                                       "refuse the file for features Throbber does not draw, or skip them (each named once)"))
        }
        return list
    }

    /// A slot's parameter name: its id, or `slot.ID` where the id is a name Throbber gives a
    /// parameter of its own (`scale`, `marker` …).
    static func parameterName(_ id: String) -> String {
        ["scale", "background", "animation", "theme", "marker", "unsupported"].contains(id) ? "slot.\(id)" : id
    }

    public subscript(color index: Int) -> RGBA {
        get {
            let v = slotValues[index]
            return RGBA(min(max(v[0], 0), 1), min(max(v[1], 0), 1), min(max(v[2], 0), 1), v.values.count > 3 ? min(max(v[3], 0), 1) : 1)
        }
        set { slotValues[index] = LottieVector([newValue.r, newValue.g, newValue.b, newValue.a]) }
    }

    public subscript(number index: Int) -> Double {
        get { slotValues[index][0] }
        set { slotValues[index] = LottieVector([newValue]) }
    }

    public subscript(pair index: Int) -> NumberPair? {
        get { NumberPair(slotValues[index][0], slotValues[index][1]) }
        set { if let newValue { slotValues[index] = LottieVector([newValue.first, newValue.second]) } }
    }
}

import Testing
@testable import Throbber

/// Parameters by SPEC name, ranges, and the messages a user sees.
struct SceneValidationTests {
    @Test func defaultSceneIsValid() throws {
        try Scene().validate()
    }

    @Test func settingByNameChangesTheModel() throws {
        let scene = try Scene().setting("tickCount", to: "60").setting("frontWater", to: "#ff000080")
        let ball = try #require(scene.model as? WaveBall)
        #expect(ball.tickCount == 60)
        #expect(ball.frontWater == RGBA(1, 0, 0, 128.0 / 255))
    }

    @Test func unknownParameterSuggestsTheNearest() {
        #expect {
            try Scene().setting("tickCont", to: "3")
        } throws: { error in
            let error = error as! ThrobberError
            return error.kind == .usage && error.message.contains("did you mean 'tickCount'")
        }
    }

    @Test func unknownSceneSuggestsTheNearest() {
        #expect {
            try SceneRegistry.model("wave-bal")
        } throws: { error in
            (error as! ThrobberError).message.contains("did you mean 'wave-ball'")
        }
    }

    @Test(arguments: [
        ("progress", "1.5", "[0, 1]"), ("progress", "nan", "[0, 1]"), ("size", "0", "> 0"), ("size", "-3", "> 0"),
        ("waveLength", "inf", "> 0"), ("tickCount", "2.5", "integer"), ("tickLit", "1,2,0,1", "[0, 1]"),
        ("amplitude", "-1", "≥ 0"), ("tickLit", "red", "colour"),
    ])
    func outOfRangeValuesNameFieldValueAndRange(name: String, value: String, allowed: String) {
        #expect {
            try Scene().setting(name, to: value)
        } throws: { error in
            let error = error as! ThrobberError
            return error.kind == .usage && error.message.contains(name) && error.message.contains(value)
                && error.message.contains(allowed)
        }
    }

    @Test func sizeTooSmallForTheDiscIsRejected() throws {
        let scene = try Scene().setting("size", to: "100")
        #expect(throws: ThrobberError.self) { try scene.validate() }
    }

    @Test func scaleMustBePositive() {
        #expect(throws: ThrobberError.self) { try Scene().setting("scale", to: "0") }
        #expect(throws: ThrobberError.self) { try Scene(scale: .nan).validate() }
    }

    @Test func canvasAboveTheLimitIsRejected() throws {
        let scene = try Scene().setting("size", to: "20000")
        #expect {
            try scene.validate()
        } throws: { error in
            (error as! ThrobberError).message.contains("20000 px")
        }
    }

    @Test func pixelSizeUsesTheSpecTolerance() throws {
        #expect(try Scene().setting("scale", to: "1.11").pixelSize.width == 333)
        #expect(try Scene().setting("scale", to: "3").pixelSize.width == 900)
        #expect(try Scene().setting("size", to: "97").setting("tickLength", to: "2").setting("scaleMargin", to: "8")
            .setting("waveMargin", to: "4").pixelSize.width == 97)
    }

    @Test func backgroundNoneIsTransparent() throws {
        #expect(try Scene.parseBackground("none") == .clear)
        #expect(try Scene.parseBackground("0.5,0.5,0.5") == RGBA(0.5, 0.5, 0.5, 1))
        #expect(throws: ThrobberError.self) { try Scene.parseBackground("1,1,1,2") }
    }

    @Test func hsbRoundTrips() {
        let color = RGBA(0.2, 0.6, 0.9, 1)
        let (h, s, b) = color.hsb
        let back = RGBA.hsb(h, s, b, 1)
        #expect(abs(back.r - color.r) < 1e-12 && abs(back.g - color.g) < 1e-12 && abs(back.b - color.b) < 1e-12)
    }

    @Test func resolveWritesTransparentPixelsAsZero() {
        #expect(resolvePixel(0.001, 0.001, 0.001, 0.001) == (0, 0, 0, 0))
        #expect(resolvePixel(0.25, 0.5, 0, 0.5) == (128, 255, 0, 128))
    }
}

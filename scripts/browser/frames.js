"use strict";
// What decode.html and player.js share: fetching bytes, and a decoded frame's exact RGBA.

async function fetchBytes(url) {
  const response = await fetch(url, {cache: "no-store"});
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

// Copies a VideoFrame (what ImageDecoder hands out) into tightly packed RGBA bytes, without any
// conversion: copyTo in the frame's own format is a plain byte copy, so the swizzle below is the
// only change (copyTo with format "RGBA" works in Chromium too, but may convert colour spaces).
async function frameToRGBA(frame) {
  const width = frame.visibleRect.width, height = frame.visibleRect.height;
  const raw = new Uint8Array(frame.allocationSize());
  const [plane] = await frame.copyTo(raw);
  const rgba = new Uint8Array(width * height * 4);
  const swap = frame.format === "BGRA" || frame.format === "BGRX";
  const opaque = frame.format === "RGBX" || frame.format === "BGRX";
  if (!["RGBA", "RGBX", "BGRA", "BGRX"].includes(frame.format))
    throw new Error(`decoded frame has pixel format ${frame.format}, not RGBA/RGBX/BGRA/BGRX`);
  for (let y = 0; y < height; y++) {
    let s = plane.offset + y * plane.stride, d = y * width * 4;
    for (let x = 0; x < width; x++, s += 4, d += 4) {
      rgba[d] = raw[swap ? s + 2 : s];
      rgba[d + 1] = raw[s + 1];
      rgba[d + 2] = raw[swap ? s : s + 2];
      rgba[d + 3] = opaque ? 255 : raw[s + 3];
    }
  }
  return {width, height, rgba};
}

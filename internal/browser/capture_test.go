package browser

import (
	"bytes"
	"image"
	"image/jpeg"
	"image/png"
	"testing"
)

func TestImageSize(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 37, 21))
	var p, j bytes.Buffer
	png.Encode(&p, img)
	jpeg.Encode(&j, img, nil)
	for name, data := range map[string][]byte{"png": p.Bytes(), "jpeg": j.Bytes()} {
		if w, h := ImageSize(data); w != 37 || h != 21 {
			t.Errorf("%s: %dx%d", name, w, h)
		}
	}
	// A lossless WebP header for 37x21 (width-1 and height-1 packed in 14 bits each).
	bits := uint32(36) | uint32(20)<<14
	webp := append([]byte("RIFF\x00\x00\x00\x00WEBPVP8L\x00\x00\x00\x00\x2f"), byte(bits), byte(bits>>8), byte(bits>>16), byte(bits>>24), 0, 0, 0, 0, 0)
	if w, h := ImageSize(webp); w != 37 || h != 21 {
		t.Errorf("webp: %dx%d", w, h)
	}
	if w, h := ImageSize([]byte("not an image")); w != 0 || h != 0 {
		t.Errorf("garbage: %dx%d", w, h)
	}
}

func FuzzImageSize(f *testing.F) {
	f.Add([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x00\x00\x10\x00\x00\x00\x10"))
	f.Add([]byte{0xFF, 0xD8, 0xFF, 0xC0, 0, 17, 8, 0, 16, 0, 16})
	f.Add([]byte("RIFF\x00\x00\x00\x00WEBPVP8X\x00\x00\x00\x00\x00\x00\x00\x00\x0f\x00\x00\x0f\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ImageSize(data) // must not panic on any input
	})
}

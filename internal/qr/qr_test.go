package qr

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// texts a class's join link can be, from the shortest to the longest drawn.
var texts = []string{
	"A",
	"http://127.0.0.1:8080/#join=ABC234",
	"http://192.168.100.200:8080/#join=XYZ789",
	"https://lockstep.example.edu/#join=QWERTY",
	strings.Repeat("x", 100),
	strings.Repeat("Lockstep 中文 ", 12),
	strings.Repeat("z", MaxBytes),
}

// A code is a square of 21 to 57 modules (versions 1 to 10) with its
// three finder patterns in the corners: no quiet zone, which the page
// draws.
func TestRowsAreASquareWithoutItsQuietZone(t *testing.T) {
	for _, text := range texts {
		rows := Rows(text)
		n := len(rows)
		if n < 21 || n > 57 || (n-17)%4 != 0 {
			t.Fatalf("%q: %d rows, not a version 1-10 symbol", text, n)
		}
		for _, r := range rows {
			if len(r) != n || strings.Trim(r, "01") != "" {
				t.Fatalf("%q: row %q is not %d modules of 0 and 1", text, r, n)
			}
		}
		finder := "1111111"
		if rows[0][:7] != finder || rows[0][n-7:] != finder || rows[n-1][:7] != finder {
			t.Fatalf("%q: no finder pattern in a corner: the quiet zone is not cut", text)
		}
	}
}

// A real scanner reads the codes: zbarimg (apt-get install zbar-tools),
// when it is installed.
func TestScannerReadsThem(t *testing.T) {
	zbar, err := exec.LookPath("zbarimg")
	if err != nil {
		t.Skip("zbarimg is not installed (apt-get install zbar-tools)")
	}
	dir := t.TempDir()
	for i, text := range texts {
		rows := Rows(text)
		const scale, quiet = 6, 4
		size := len(rows)
		side := (size + 2*quiet) * scale
		img := image.NewGray(image.Rect(0, 0, side, side))
		for y := range side {
			for x := range side {
				mx, my := x/scale-quiet, y/scale-quiet
				col := color.Gray{255}
				if mx >= 0 && my >= 0 && mx < size && my < size && rows[my][mx] == '1' {
					col = color.Gray{0}
				}
				img.SetGray(x, y, col)
			}
		}
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(dir, "code.png")
		if err := os.WriteFile(f, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(zbar, "-q", "--raw", "-Sbinary", f).Output()
		if err != nil {
			t.Fatalf("text %d (%d modules): zbarimg read nothing: %v", i, size, err)
		}
		if got := strings.TrimSuffix(string(out), "\n"); got != text {
			t.Fatalf("text %d: zbarimg read %q, want %q", i, got, text)
		}
	}
}

func TestTooLongOrEmpty(t *testing.T) {
	for _, text := range []string{"", strings.Repeat("z", MaxBytes+1)} {
		if Rows(text) != nil {
			t.Fatalf("Rows of a %d-byte text should be nil", len(text))
		}
	}
}

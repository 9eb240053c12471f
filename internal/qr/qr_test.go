package qr

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// texts a class's join link can be, from the shortest to the longest a
// version 10 holds.
var texts = []string{
	"A",
	"http://127.0.0.1:8080/#join=ABC234",
	"http://192.168.100.200:8080/#join=XYZ789",
	"https://lockstep.example.edu/#join=QWERTY",
	strings.Repeat("x", 100),
	strings.Repeat("Lockstep 中文 ", 12),
	strings.Repeat("z", 213),
}

// Every codeword the symbol holds is read back in the standard's order
// and each block's error correction checks: the polynomial of a block,
// data then correction, has α^0 … α^(n-1) as roots. This reads the
// symbol with its own walk; zbarimg (below) reads it as a scanner does.
func TestBlocksCheckOut(t *testing.T) {
	for _, text := range texts {
		c, err := Encode(text)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		c.applyMask(c.Mask) // unmask to read the codewords
		var words []byte
		var cur byte
		k := 0
		n := c.Size
		for right := n - 1; right >= 1; right -= 2 {
			if right == 6 {
				right = 5
			}
			for vert := range n {
				for j := range 2 {
					x, y := right-j, vert
					if (right+1)&2 == 0 {
						y = n - 1 - vert
					}
					if c.fn[y][x] {
						continue
					}
					cur <<= 1
					if c.dark[y][x] {
						cur |= 1
					}
					if k++; k%8 == 0 {
						words = append(words, cur)
						cur = 0
					}
				}
			}
		}
		v := c.Version
		nb, ecc := eccBlocks[v], eccPerBlock[v]
		raw := rawModules(v) / 8
		if len(words) != raw {
			t.Fatalf("%q: read %d codewords, the version holds %d", text, len(words), raw)
		}
		// De-interleave: block j's i-th codeword.
		short, shortLen := nb-raw%nb, raw/nb
		blocks := make([][]byte, nb)
		idx := 0
		for i := range shortLen + 1 {
			for j := range nb {
				if j < short && i == shortLen-ecc { // a short block has no codeword here
					continue
				}
				blocks[j] = append(blocks[j], words[idx])
				idx++
			}
		}
		var data []byte
		for j, b := range blocks {
			for r := range ecc {
				root := byte(1)
				for range r {
					root = gfMul(root, 2)
				}
				var s byte
				for _, w := range b {
					s = gfMul(s, root) ^ w
				}
				if s != 0 {
					t.Fatalf("%q: block %d has syndrome %d = %#x, not 0", text, j, r, s)
				}
			}
			data = append(data, b[:len(b)-ecc]...)
		}
		// Byte mode, the count, the text.
		if data[0]>>4 != 4 {
			t.Fatalf("%q: mode %d, not byte mode", text, data[0]>>4)
		}
		var count, off int
		if v >= 10 {
			count, off = int(data[0]&15)<<12|int(data[1])<<4|int(data[2]>>4), 20
		} else {
			count, off = int(data[0]&15)<<4|int(data[1]>>4), 12
		}
		got := make([]byte, count)
		for i := range got {
			bit := off + 8*i
			got[i] = data[bit/8]<<(bit%8) | data[bit/8+1]>>(8-bit%8)
		}
		if string(got) != text {
			t.Fatalf("read back %q, want %q", got, text)
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
		c, err := Encode(text)
		if err != nil {
			t.Fatal(err)
		}
		const scale, quiet = 6, 4
		side := (c.Size + 2*quiet) * scale
		img := image.NewGray(image.Rect(0, 0, side, side))
		for y := range side {
			for x := range side {
				mx, my := x/scale-quiet, y/scale-quiet
				col := color.Gray{255}
				if mx >= 0 && my >= 0 && mx < c.Size && my < c.Size && c.Dark(mx, my) {
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
			t.Fatalf("text %d (version %d, mask %d): zbarimg read nothing: %v", i, c.Version, c.Mask, err)
		}
		if got := strings.TrimSuffix(string(out), "\n"); got != text {
			t.Fatalf("text %d: zbarimg read %q, want %q", i, got, text)
		}
	}
}

func TestTooLong(t *testing.T) {
	if _, err := Encode(strings.Repeat("z", 214)); !errors.Is(err, ErrTooLong) {
		t.Fatalf("214 bytes: got %v, want ErrTooLong", err)
	}
	if Rows(strings.Repeat("z", 214)) != nil {
		t.Fatal("Rows of a text too long should be nil")
	}
}

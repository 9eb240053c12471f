// Package qr draws QR codes (ISO/IEC 18004) of short texts such as a
// class's join link: byte mode, error correction level M, versions 1 to
// 10 (up to 213 bytes). It has no dependencies: a join code's QR is drawn
// by the page from the rows this package gives.
package qr

import (
	"errors"
	"strings"
)

// Level M's error correction codewords per block and blocks, by version
// (index 0 unused).
var (
	eccPerBlock = [...]int{0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26}
	eccBlocks   = [...]int{0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5}
)

// MaxVersion is the largest version drawn; MaxBytes, the longest text.
const MaxVersion = 10

// ErrTooLong is returned for a text that does not fit version 10 at level M.
var ErrTooLong = errors.New("qr: the text is too long for a QR code of version 10, level M")

// Code is a QR code: Size×Size modules, true for dark.
type Code struct {
	Version int
	Size    int
	Mask    int
	dark    [][]bool
	fn      [][]bool // function patterns: not data
}

// Dark reports whether the module at column x, row y is dark.
func (c *Code) Dark(x, y int) bool { return c.dark[y][x] }

// Rows gives text's QR code as strings of '1' (dark) and '0', one a row,
// or nil when it does not fit.
func Rows(text string) []string {
	c, err := Encode(text)
	if err != nil {
		return nil
	}
	out := make([]string, c.Size)
	for y := range c.Size {
		var b strings.Builder
		for x := range c.Size {
			if c.dark[y][x] {
				b.WriteByte('1')
			} else {
				b.WriteByte('0')
			}
		}
		out[y] = b.String()
	}
	return out
}

// Encode makes the QR code of text in byte mode at level M, at the
// smallest version it fits, with the mask of least penalty.
func Encode(text string) (*Code, error) {
	data := []byte(text)
	ver := 0
	for v := 1; v <= MaxVersion; v++ {
		countBits := 8
		if v >= 10 {
			countBits = 16
		}
		if 4+countBits+8*len(data) <= dataCodewords(v)*8 {
			ver = v
			break
		}
	}
	if ver == 0 {
		return nil, ErrTooLong
	}
	// The bit stream: mode 0100 (byte), the count, the bytes, a terminator
	// of up to four zeros, zeros to a byte, then the pad bytes.
	var bits []bool
	put := func(v, n int) {
		for i := n - 1; i >= 0; i-- {
			bits = append(bits, v>>i&1 == 1)
		}
	}
	put(4, 4)
	if ver >= 10 {
		put(len(data), 16)
	} else {
		put(len(data), 8)
	}
	for _, b := range data {
		put(int(b), 8)
	}
	capBits := dataCodewords(ver) * 8
	put(0, min(4, capBits-len(bits)))
	put(0, (8-len(bits)%8)%8)
	for pad := 0xEC; len(bits) < capBits; pad ^= 0xEC ^ 0x11 {
		put(pad, 8)
	}
	words := make([]byte, len(bits)/8)
	for i, b := range bits {
		if b {
			words[i/8] |= 0x80 >> (i % 8)
		}
	}
	c := newCode(ver)
	c.drawFunctions()
	c.drawCodewords(interleave(ver, words))
	best, bestPenalty := 0, -1
	for m := range 8 {
		c.applyMask(m)
		c.drawFormat(m)
		if p := c.penalty(); bestPenalty < 0 || p < bestPenalty {
			best, bestPenalty = m, p
		}
		c.applyMask(m) // undo: a mask is its own inverse
	}
	c.applyMask(best)
	c.drawFormat(best)
	c.Mask = best
	return c, nil
}

// rawModules is how many modules of a version hold data and error
// correction (all but the function patterns and format and version
// information).
func rawModules(ver int) int {
	n := (16*ver+128)*ver + 64
	if ver >= 2 {
		a := ver/7 + 2
		n -= (25*a-10)*a - 55
		if ver >= 7 {
			n -= 36
		}
	}
	return n
}

// dataCodewords is how many 8-bit data codewords a version holds at level M.
func dataCodewords(ver int) int {
	return rawModules(ver)/8 - eccPerBlock[ver]*eccBlocks[ver]
}

// interleave splits the data into the version's blocks, appends each
// block's error correction, and interleaves them as the symbol holds them.
func interleave(ver int, data []byte) []byte {
	nb, ecc := eccBlocks[ver], eccPerBlock[ver]
	raw := rawModules(ver) / 8
	short := nb - raw%nb // blocks one data codeword shorter
	shortLen := raw / nb
	div := rsDivisor(ecc)
	var blocks [][]byte
	k := 0
	for i := range nb {
		n := shortLen - ecc
		if i >= short {
			n++
		}
		dat := data[k : k+n]
		k += n
		blocks = append(blocks, append(append([]byte{}, dat...), rsRemainder(dat, div)...))
	}
	var out []byte
	for i := range shortLen + 1 {
		for j, b := range blocks {
			// A short block has no codeword at index shortLen-ecc.
			if j < short && i == shortLen-ecc {
				continue
			}
			idx := i
			if j < short && i > shortLen-ecc {
				idx--
			}
			if idx < len(b) {
				out = append(out, b[idx])
			}
		}
	}
	return out
}

// gfMul multiplies in GF(2^8) modulo x^8+x^4+x^3+x^2+1.
func gfMul(x, y byte) byte {
	var z byte
	for i := 7; i >= 0; i-- {
		hi := z >> 7
		z = z<<1 ^ hi*0x1D
		z ^= (y >> i & 1) * x
	}
	return z
}

// rsDivisor is the Reed–Solomon generator polynomial of a degree,
// (x-α^0)(x-α^1)…, its coefficients from the highest power down, the
// leading 1 left out.
func rsDivisor(degree int) []byte {
	r := make([]byte, degree)
	r[degree-1] = 1
	root := byte(1)
	for range degree {
		for j := range r {
			r[j] = gfMul(r[j], root)
			if j+1 < len(r) {
				r[j] ^= r[j+1]
			}
		}
		root = gfMul(root, 2)
	}
	return r
}

// rsRemainder is data's error correction codewords under a divisor.
func rsRemainder(data, div []byte) []byte {
	r := make([]byte, len(div))
	for _, b := range data {
		f := b ^ r[0]
		copy(r, r[1:])
		r[len(r)-1] = 0
		for i := range r {
			r[i] ^= gfMul(div[i], f)
		}
	}
	return r
}

func newCode(ver int) *Code {
	size := 17 + 4*ver
	c := &Code{Version: ver, Size: size}
	c.dark, c.fn = make([][]bool, size), make([][]bool, size)
	for y := range size {
		c.dark[y], c.fn[y] = make([]bool, size), make([]bool, size)
	}
	return c
}

func (c *Code) setFn(x, y int, dark bool) {
	c.dark[y][x], c.fn[y][x] = dark, true
}

// drawFunctions draws the finder, separator, timing and alignment
// patterns, reserves the format areas and draws the version information.
func (c *Code) drawFunctions() {
	n := c.Size
	for i := range n {
		c.setFn(6, i, i%2 == 0)
		c.setFn(i, 6, i%2 == 0)
	}
	for _, p := range [][2]int{{3, 3}, {n - 4, 3}, {3, n - 4}} {
		for dy := -4; dy <= 4; dy++ {
			for dx := -4; dx <= 4; dx++ {
				x, y := p[0]+dx, p[1]+dy
				if x < 0 || x >= n || y < 0 || y >= n {
					continue
				}
				d := max(abs(dx), abs(dy))
				c.setFn(x, y, d != 2 && d != 4)
			}
		}
	}
	pos := alignments(c.Version, n)
	for i, x := range pos {
		for j, y := range pos {
			if (i == 0 && j == 0) || (i == 0 && j == len(pos)-1) || (i == len(pos)-1 && j == 0) {
				continue
			}
			for dy := -2; dy <= 2; dy++ {
				for dx := -2; dx <= 2; dx++ {
					c.setFn(x+dx, y+dy, max(abs(dx), abs(dy)) != 1)
				}
			}
		}
	}
	c.drawFormat(0) // reserves the areas; drawn again with the mask chosen
	if c.Version >= 7 {
		rem := c.Version
		for range 12 {
			rem = rem<<1 ^ (rem>>11)*0x1F25
		}
		bits := c.Version<<12 | rem
		for i := range 18 {
			dark := bits>>i&1 == 1
			a, b := n-11+i%3, i/3
			c.setFn(a, b, dark)
			c.setFn(b, a, dark)
		}
	}
}

// alignments gives the centres of the alignment patterns on each axis.
func alignments(ver, size int) []int {
	if ver == 1 {
		return nil
	}
	na := ver/7 + 2
	step := (ver*8 + na*3 + 5) / (na*4 - 4) * 2
	out := []int{6}
	for p := size - 7; len(out) < na; p -= step {
		out = append([]int{6, p}, out[1:]...)
	}
	return out
}

// drawFormat draws the format information (level M, mask) in both copies,
// and the dark module.
func (c *Code) drawFormat(mask int) {
	data := 0<<3 | mask // level M's format bits are 00
	rem := data
	for range 10 {
		rem = rem<<1 ^ (rem>>9)*0x537
	}
	bits := (data<<10 | rem) ^ 0x5412
	bit := func(i int) bool { return bits>>i&1 == 1 }
	n := c.Size
	for i := 0; i <= 5; i++ {
		c.setFn(8, i, bit(i))
	}
	c.setFn(8, 7, bit(6))
	c.setFn(8, 8, bit(7))
	c.setFn(7, 8, bit(8))
	for i := 9; i < 15; i++ {
		c.setFn(14-i, 8, bit(i))
	}
	for i := range 8 {
		c.setFn(n-1-i, 8, bit(i))
	}
	for i := 8; i < 15; i++ {
		c.setFn(8, n-15+i, bit(i))
	}
	c.setFn(8, n-8, true)
}

// drawCodewords places the codewords' bits in the zigzag order of the
// standard: two columns at a time from the right, up then down, skipping
// the vertical timing column.
func (c *Code) drawCodewords(words []byte) {
	n, i := c.Size, 0
	for right := n - 1; right >= 1; right -= 2 {
		if right == 6 {
			right = 5
		}
		for vert := range n {
			for j := range 2 {
				x := right - j
				up := (right+1)&2 == 0
				y := vert
				if up {
					y = n - 1 - vert
				}
				if !c.fn[y][x] && i < len(words)*8 {
					c.dark[y][x] = words[i>>3]>>(7-i&7)&1 == 1
					i++
				}
			}
		}
	}
}

// masked reports whether mask m flips the module at x, y.
func masked(m, x, y int) bool {
	switch m {
	case 0:
		return (x+y)%2 == 0
	case 1:
		return y%2 == 0
	case 2:
		return x%3 == 0
	case 3:
		return (x+y)%3 == 0
	case 4:
		return (x/3+y/2)%2 == 0
	case 5:
		return x*y%2+x*y%3 == 0
	case 6:
		return (x*y%2+x*y%3)%2 == 0
	default:
		return ((x+y)%2+x*y%3)%2 == 0
	}
}

func (c *Code) applyMask(m int) {
	for y := range c.Size {
		for x := range c.Size {
			if !c.fn[y][x] && masked(m, x, y) {
				c.dark[y][x] = !c.dark[y][x]
			}
		}
	}
}

// penalty scores a masked symbol by the standard's four rules: runs of
// five or more, 2×2 blocks, finder-like patterns, and the balance of dark
// and light. Any mask gives a readable code; the least penalty reads best.
func (c *Code) penalty() int {
	n, p := c.Size, 0
	line := func(get func(i int) bool) {
		run := 1
		var s strings.Builder
		for i := range n {
			if get(i) {
				s.WriteByte('1')
			} else {
				s.WriteByte('0')
			}
			if i > 0 && get(i) == get(i-1) {
				run++
			} else {
				if run >= 5 {
					p += 3 + run - 5
				}
				run = 1
			}
		}
		if run >= 5 {
			p += 3 + run - 5
		}
		str := "0000" + s.String() + "0000"
		for _, pat := range []string{"00001011101", "10111010000"} {
			p += 40 * strings.Count(str, pat)
		}
	}
	dark := 0
	for y := range n {
		line(func(x int) bool { return c.dark[y][x] })
	}
	for x := range n {
		line(func(y int) bool { return c.dark[y][x] })
	}
	for y := range n {
		for x := range n {
			if c.dark[y][x] {
				dark++
			}
			if x+1 < n && y+1 < n {
				d := c.dark[y][x]
				if c.dark[y][x+1] == d && c.dark[y+1][x] == d && c.dark[y+1][x+1] == d {
					p += 3
				}
			}
		}
	}
	total := n * n
	k := (abs(dark*20-total*10)+total-1)/total - 1
	return p + max(k, 0)*10
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

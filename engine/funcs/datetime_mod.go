package funcs

import (
	"strings"

	"github.com/ladybugsql/ladybug/engine/types"
)

// xform is one "NNN units" modifier: its name, the largest NNN allowed and
// the seconds in one unit.
var xforms = [...]struct {
	name   string
	limit  float64
	factor float64
}{
	{"second", 4.6427e+14, 1.0},
	{"minute", 7.7379e+12, 60.0},
	{"hour", 1.2897e+11, 3600.0},
	{"day", 5373485.0, 86400.0},
	{"month", 176546.0, 2592000.0},
	{"year", 14713.0, 31536000.0},
}

// parseModifier applies modifier z (the idx-th argument); true means the
// modifier is not understood or not applicable, making the result NULL.
func (p *dateTime) parseModifier(c *Context, z string, idx int) bool {
	if z == "" {
		return true
	}
	lz := strings.ToLower(z)
	switch lz[0] {
	case 'a':
		return p.modAuto(lz, idx)
	case 'c':
		if lz == "ceiling" {
			p.computeJD()
			p.clearYMDHMS()
			p.nFloor = 0
			return false
		}
	case 'f':
		if lz == "floor" {
			p.computeJD()
			p.iJD -= int64(p.nFloor) * 86400000
			p.clearYMDHMS()
			return false
		}
	case 'j':
		if lz == "julianday" {
			if idx > 1 || !(p.validJD && p.rawS) {
				return true
			}
			p.rawS = false
			return false
		}
	case 'l':
		if lz == "localtime" {
			fail := false
			if !p.isLocal {
				fail = p.toLocaltime(c.location())
			}
			p.isUtc, p.isLocal = false, true
			return fail
		}
	case 'u':
		return p.modUnixOrUTC(c, lz, idx)
	case 'w':
		return p.modWeekday(lz)
	case 's':
		return p.modStart(lz)
	case '+', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return p.modNumeric(z)
	}
	return true
}

func (p *dateTime) modAuto(lz string, idx int) bool {
	if lz != "auto" || idx > 1 {
		return true
	}
	if !p.rawS || p.validJD {
		p.rawS = false
		return false
	}
	if p.s >= -210866760000 && p.s <= 253402300799 {
		r := p.s*1000 + unixEpochJD
		p.clearYMDHMS()
		p.iJD, p.validJD, p.rawS = int64(r+0.5), true, false
		return false
	}
	return true
}

func (p *dateTime) modUnixOrUTC(c *Context, lz string, idx int) bool {
	if lz == "unixepoch" && p.rawS {
		if idx > 1 {
			return true
		}
		r := p.s*1000 + unixEpochJD
		if r >= 0 && r < 464269060800000 {
			p.clearYMDHMS()
			p.iJD, p.validJD, p.rawS = int64(r+0.5), true, false
			return false
		}
		return true
	}
	if lz != "utc" {
		return true
	}
	if !p.isUtc {
		p.computeJD()
		orig := p.iJD
		guess, diff := orig, int64(0)
		for cnt := 0; ; cnt++ {
			guess -= diff
			n := dateTime{iJD: guess, validJD: true}
			n.toLocaltime(c.location())
			n.computeJD()
			diff = n.iJD - orig
			if diff == 0 || cnt >= 3 {
				break
			}
		}
		*p = dateTime{iJD: guess, validJD: true, isUtc: true}
	}
	return false
}

func (p *dateTime) modWeekday(lz string) bool {
	arg, ok := strings.CutPrefix(lz, "weekday ")
	if !ok || !types.LooksNumeric(arg) {
		return true
	}
	r := types.NewText(arg).AsReal()
	n := int64(r)
	if r < 0 || r >= 7 || float64(n) != r {
		return true
	}
	p.computeYMDHMS()
	p.tz, p.validJD = 0, false
	p.computeJD()
	Z := ((p.iJD + 129600000) / 86400000) % 7
	if Z > n {
		Z -= 7
	}
	p.iJD += (n - Z) * 86400000
	p.clearYMDHMS()
	return false
}

func (p *dateTime) modStart(lz string) bool {
	unit, ok := strings.CutPrefix(lz, "start of ")
	if !ok {
		if lz == "subsec" || lz == "subsecond" {
			p.useSubsec = true
			return false
		}
		return true
	}
	if !p.validJD && !p.validYMD && !p.validHMS {
		return true
	}
	p.computeYMD()
	p.validHMS = true
	p.h, p.m, p.s = 0, 0, 0
	p.rawS, p.tz, p.validJD = false, 0, false
	switch unit {
	case "month":
		p.D = 1
	case "year":
		p.M, p.D = 1, 1
	case "day":
	default:
		return true
	}
	return false
}

// modNumeric handles "±NNN units", "±HH:MM[:SS.FFF]" and
// "±YYYY-MM-DD[ HH:MM[:SS.FFF]]".
func (p *dateTime) modNumeric(z string) bool {
	n := 1
	for ; n < len(z); n++ {
		if z[n] == ':' || isSpaceByte(z[n]) {
			break
		}
		var y int
		if z[n] == '-' && ((n == 5 && getDigits(z[1:], "40f", &y) == 1) || (n == 6 && getDigits(z[1:], "50f", &y) == 1)) {
			break
		}
	}
	if !types.LooksNumeric(z[:n]) {
		return true
	}
	r := types.NewText(z[:n]).AsReal()
	z2 := z
	if n < len(z) && z[n] == '-' {
		var ok bool
		if z2, n, ok = p.modYMD(z, n); !ok {
			return true
		}
		if z2 == "" {
			return false
		}
	}
	if n < len(z2) && z2[n] == ':' {
		return p.modHMS(z[0], z2)
	}
	return p.modUnits(r, skipSpace(z[n:]))
}

// modYMD applies "±YYYY-MM-DD"; it returns what follows (a time part) in
// SQLite's odd indexing: the remaining text and the offset of its ':'.
func (p *dateTime) modYMD(z string, n int) (string, int, bool) {
	z0 := z[0]
	if z0 != '+' && z0 != '-' {
		return "", 0, false
	}
	var Y, M, D int
	if n == 5 {
		if getDigits(z[1:], "40f-20a-20d", &Y, &M, &D) != 3 {
			return "", 0, false
		}
	} else {
		if getDigits(z[1:], "50f-20a-20d", &Y, &M, &D) != 3 {
			return "", 0, false
		}
		z = z[1:]
	}
	if M >= 12 || D >= 31 {
		return "", 0, false
	}
	p.computeYMDHMS()
	p.validJD = false
	if z0 == '-' {
		p.Y -= Y
		p.M -= M
		D = -D
	} else {
		p.Y += Y
		p.M += M
	}
	p.normaliseMonth()
	p.computeFloor()
	p.computeJD()
	p.validHMS, p.validYMD = false, false
	p.iJD += int64(D) * 86400000
	if len(z) <= 11 {
		return "", 0, true
	}
	var h, m int
	if isSpaceByte(z[11]) && getDigits(z[12:], "20c:20e", &h, &m) == 2 {
		return z[12:], 2, true
	}
	return "", 0, false
}

func (p *dateTime) normaliseMonth() {
	var x int
	if p.M > 0 {
		x = (p.M - 1) / 12
	} else {
		x = (p.M - 12) / 12
	}
	p.Y += x
	p.M -= x * 12
}

// modHMS applies "±HH:MM[:SS.FFF]" (the sign is optional); z0 is the
// modifier's first byte, which carries the sign.
func (p *dateTime) modHMS(z0 byte, z string) bool {
	z2 := z
	if !isDigit(z2[0]) {
		z2 = z2[1:]
	}
	var tx dateTime
	if tx.parseHhMmSs(z2) {
		return true
	}
	tx.computeJD()
	tx.iJD -= 43200000
	day := tx.iJD / 86400000
	tx.iJD -= day * 86400000
	if z0 == '-' {
		tx.iJD = -tx.iJD
	}
	p.computeJD()
	p.clearYMDHMS()
	p.iJD += tx.iJD
	return false
}

// modUnits applies "NNN days" and the like.
func (p *dateTime) modUnits(r float64, unit string) bool {
	n := len(unit)
	if n < 3 || n > 10 {
		return true
	}
	if unit[n-1] == 's' || unit[n-1] == 'S' {
		n--
	}
	unit = strings.ToLower(unit[:n])
	p.computeJD()
	rounder := 0.5
	if r < 0 {
		rounder = -0.5
	}
	p.nFloor = 0
	fail := true
	for i, x := range xforms {
		if x.name != unit || !(r > -x.limit && r < x.limit) {
			continue
		}
		switch i {
		case 4: // months
			p.computeYMDHMS()
			p.M += int(r)
			p.normaliseMonth()
			p.computeFloor()
			p.validJD = false
			r -= float64(int(r))
		case 5: // years
			p.computeYMDHMS()
			p.Y += int(r)
			p.computeFloor()
			p.validJD = false
			r -= float64(int(r))
		}
		p.computeJD()
		p.iJD += int64(r*1000*x.factor + rounder)
		fail = false
		break
	}
	p.clearYMDHMS()
	return fail
}

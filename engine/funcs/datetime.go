package funcs

import (
	"strings"
	"time"

	"github.com/ladybugsql/ladybug/engine/types"
)

// dateTime is SQLite's DateTime (date.c): a moment as a julian day number
// in milliseconds and/or broken-down fields, each set valid lazily. The
// algorithms below are SQLite's, kept step for step so results, edge
// cases and NULLs match.
type dateTime struct {
	iJD       int64 // julian day number × 86400000
	Y, M, D   int
	h, m      int
	tz        int // time zone offset in minutes
	s         float64
	validJD   bool
	validYMD  bool
	validHMS  bool
	nFloor    int
	rawS      bool // s holds a raw number not yet interpreted
	isError   bool
	useSubsec bool
	isUtc     bool
	isLocal   bool
}

// maxJD is the last valid julian day in ms (9999-12-31 23:59:59.999).
const maxJD = 464269060799999

// unixEpochJD is 1970-01-01 as a julian day in ms.
const unixEpochJD = 210866760000000

func validJulianDay(jd int64) bool { return jd >= 0 && jd <= maxJD }

// getDigits reads fixed-width numbers per SQLite's format: each field is
// "N min max sep" with max coded a..f = 12, 14, 24, 31, 59, 14712.
func getDigits(z, format string, out ...*int) int {
	cnt, zi := 0, 0
	for f := 0; f+2 < len(format); f += 4 {
		n := int(format[f] - '0')
		lo := int(format[f+1] - '0')
		hi := digitMax[format[f+2]-'a']
		val := 0
		for ; n > 0; n-- {
			if zi >= len(z) || !isDigit(z[zi]) {
				return cnt
			}
			val = val*10 + int(z[zi]-'0')
			zi++
		}
		if val < lo || val > hi {
			return cnt
		}
		if f+3 < len(format) && format[f+3] != 0 {
			if zi >= len(z) || z[zi] != format[f+3] {
				return cnt
			}
			zi++
		}
		*out[cnt] = val
		cnt++
	}
	return cnt
}

var digitMax = [...]int{12, 14, 24, 31, 59, 14712}

func skipSpace(z string) string {
	i := 0
	for i < len(z) && isSpaceByte(z[i]) {
		i++
	}
	return z[i:]
}

func isSpaceByte(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') }

// parseTimezone reads an optional "±HH:MM" or "Z"; it fails (true) on
// anything else but trailing space.
func (p *dateTime) parseTimezone(z string) bool {
	z = skipSpace(z)
	p.tz = 0
	if z == "" {
		return false
	}
	sgn := 0
	switch z[0] {
	case '-':
		sgn = -1
	case '+':
		sgn = 1
	case 'Z', 'z':
		p.isLocal, p.isUtc = false, true
		return skipSpace(z[1:]) != ""
	default:
		return true
	}
	var nHr, nMn int
	if getDigits(z[1:], "20b:20e", &nHr, &nMn) != 2 {
		return true
	}
	p.tz = sgn * (nMn + nHr*60)
	return skipSpace(z[6:]) != ""
}

// parseHhMmSs reads "HH:MM[:SS[.FFF]]" and an optional zone.
func (p *dateTime) parseHhMmSs(z string) bool {
	var h, m, s int
	if getDigits(z, "20c:20e", &h, &m) != 2 {
		return true
	}
	z = z[5:]
	ms := 0.0
	if z != "" && z[0] == ':' {
		if getDigits(z[1:], "20e", &s) != 1 {
			return true
		}
		z = z[3:]
		if len(z) > 1 && z[0] == '.' && isDigit(z[1]) {
			scale := 1.0
			z = z[1:]
			for z != "" && isDigit(z[0]) {
				ms = ms*10 + float64(z[0]-'0')
				scale *= 10
				z = z[1:]
			}
			ms /= scale
			ms = min(ms, 0.999)
		}
	}
	p.validJD, p.rawS, p.validHMS = false, false, true
	p.h, p.m, p.s = h, m, float64(s)+ms
	return p.parseTimezone(z)
}

func (p *dateTime) computeJD() {
	if p.validJD {
		return
	}
	Y, M, D := 2000, 1, 1
	if p.validYMD {
		Y, M, D = p.Y, p.M, p.D
	}
	if Y < -4713 || Y > 9999 || p.rawS {
		p.setError()
		return
	}
	if M <= 2 {
		Y--
		M += 12
	}
	A := (Y + 4800) / 100
	B := 38 - A + (A / 4)
	X1 := 36525 * (Y + 4716) / 100
	X2 := 306001 * (M + 1) / 10000
	p.iJD = int64((float64(X1+X2+D+B) - 1524.5) * 86400000)
	p.validJD = true
	if p.validHMS {
		p.iJD += int64(p.h)*3600000 + int64(p.m)*60000 + int64(p.s*1000+0.5)
		if p.tz != 0 {
			p.iJD -= int64(p.tz) * 60000
			p.validYMD, p.validHMS = false, false
			p.tz = 0
			p.isUtc, p.isLocal = true, false
		}
	}
}

func (p *dateTime) setError() {
	*p = dateTime{isError: true}
}

func (p *dateTime) computeFloor() {
	switch {
	case p.D <= 28:
		p.nFloor = 0
	case (1<<uint(p.M))&0x15aa != 0:
		p.nFloor = 0
	case p.M != 2:
		p.nFloor = boolToInt(p.D == 31)
	case p.Y%4 != 0 || (p.Y%100 == 0 && p.Y%400 != 0):
		p.nFloor = p.D - 28
	default:
		p.nFloor = p.D - 29
	}
}

func boolToInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// parseYyyyMmDd reads "[-]YYYY-MM-DD" and an optional time after space/T.
func (p *dateTime) parseYyyyMmDd(z string) bool {
	neg := false
	if z != "" && z[0] == '-' {
		z, neg = z[1:], true
	}
	var Y, M, D int
	if getDigits(z, "40f-21a-21d", &Y, &M, &D) != 3 {
		return true
	}
	z = z[10:]
	for z != "" && (isSpaceByte(z[0]) || z[0] == 'T') {
		z = z[1:]
	}
	if !p.parseHhMmSs(z) {
		// got the time
	} else if z == "" {
		p.validHMS = false
	} else {
		return true
	}
	p.validJD, p.validYMD = false, true
	p.Y, p.M, p.D = Y, M, D
	if neg {
		p.Y = -Y
	}
	p.computeFloor()
	if p.tz != 0 {
		p.computeJD()
	}
	return false
}

func (p *dateTime) setCurrent(c *Context) {
	now := c.now()
	p.iJD = now.UnixMilli() + unixEpochJD
	p.validJD, p.isUtc, p.isLocal = true, true, false
	p.clearYMDHMS()
}

func (p *dateTime) setRawNumber(r float64) {
	p.s, p.rawS = r, true
	if r >= 0 && r < 5373484.5 {
		p.iJD = int64(r*86400000 + 0.5)
		p.validJD = true
	}
}

// parseDateOrTime reads a time value's text form.
func (p *dateTime) parseDateOrTime(c *Context, z string) bool {
	switch {
	case !p.parseYyyyMmDd(z):
		return false
	case !p.parseHhMmSs(z):
		return false
	case strings.EqualFold(z, "now"):
		p.setCurrent(c)
		return false
	case types.LooksNumeric(z):
		p.setRawNumber(types.NewText(z).AsReal())
		return false
	case strings.EqualFold(z, "subsec") || strings.EqualFold(z, "subsecond"):
		p.useSubsec = true
		p.setCurrent(c)
		return false
	}
	return true
}

func (p *dateTime) computeYMD() {
	if p.validYMD {
		return
	}
	switch {
	case !p.validJD:
		p.Y, p.M, p.D = 2000, 1, 1
	case !validJulianDay(p.iJD):
		p.setError()
		return
	default:
		Z := int((p.iJD + 43200000) / 86400000)
		alpha := int((float64(Z)+32044.75)/36524.25) - 52
		A := Z + 1 + alpha - ((alpha + 100) / 4) + 25
		B := A + 1524
		C := int((float64(B) - 122.1) / 365.25)
		D := (36525 * (C & 32767)) / 100
		E := int(float64(B-D) / 30.6001)
		X1 := int(30.6001 * float64(E))
		p.D = B - D - X1
		if E < 14 {
			p.M = E - 1
		} else {
			p.M = E - 13
		}
		if p.M > 2 {
			p.Y = C - 4716
		} else {
			p.Y = C - 4715
		}
	}
	p.validYMD = true
}

func (p *dateTime) computeHMS() {
	if p.validHMS {
		return
	}
	p.computeJD()
	dayMs := int((p.iJD + 43200000) % 86400000)
	p.s = float64(dayMs%60000) / 1000.0
	dayMin := dayMs / 60000
	p.m, p.h = dayMin%60, dayMin/60
	p.rawS, p.validHMS = false, true
}

func (p *dateTime) computeYMDHMS() {
	p.computeYMD()
	p.computeHMS()
}

func (p *dateTime) clearYMDHMS() {
	p.validYMD, p.validHMS, p.tz = false, false, 0
}

// toLocaltime converts a UTC moment to local broken-down time in loc. Like SQLite, it maps years outside 1970-2037 into that range
// for the zone lookup and back, and it clears an earlier error.
func (p *dateTime) toLocaltime(loc *time.Location) bool {
	p.computeJD()
	var t int64
	yearDiff := 0
	if p.iJD < 210866760000000 || p.iJD > 213014145600000 {
		x := *p
		x.computeYMDHMS()
		yearDiff = (2000 + x.Y%4) - x.Y
		x.Y += yearDiff
		x.validJD = false
		x.computeJD()
		t = x.iJD/1000 - unixEpochJD/1000
	} else {
		t = p.iJD/1000 - unixEpochJD/1000
	}
	lt := time.Unix(t, 0).In(loc)
	p.Y, p.M, p.D = lt.Year()-yearDiff, int(lt.Month()), lt.Day()
	p.h, p.m = lt.Hour(), lt.Minute()
	p.s = float64(lt.Second()) + float64(p.iJD%1000)*0.001
	p.validYMD, p.validHMS, p.validJD = true, true, false
	p.rawS, p.tz, p.isError = false, 0, false
	return false
}

// isDate evaluates a time value and its modifiers; fail is SQLite's NULL.
func isDate(c *Context, args []types.Value, p *dateTime) (fail bool) {
	*p = dateTime{}
	if len(args) == 0 {
		p.setCurrent(c)
		return false
	}
	switch v := args[0]; v.Kind() {
	case types.KindNull:
		return true
	case types.KindInt, types.KindReal:
		p.setRawNumber(v.AsReal())
	default:
		if p.parseDateOrTime(c, cString(textOf(v))) {
			return true
		}
	}
	for i := 1; i < len(args); i++ {
		if args[i].IsNull() || p.parseModifier(c, cString(textOf(args[i])), i) {
			return true
		}
	}
	p.computeJD()
	if p.isError || !validJulianDay(p.iJD) {
		return true
	}
	if len(args) == 1 && p.validYMD && p.D > 28 {
		p.validYMD = false // normalise 2023-02-31 to 2023-03-03
	}
	return false
}

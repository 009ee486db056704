package funcs

import (
	"fmt"
	"strconv"

	"github.com/ladybugsql/ladybug/engine/types"
)

// The date and time functions read the statement clock through the
// Context's Env ('now'), so they are marked non-deterministic: the planner
// must not fold them at prepare time.
var dateFuncs = []*Func{
	volatile("julianday", 0, -1, fnJulianday),
	volatile("unixepoch", 0, -1, fnUnixepoch),
	volatile("date", 0, -1, fnDate),
	volatile("time", 0, -1, fnTime),
	volatile("datetime", 0, -1, fnDatetime),
	volatile("strftime", 1, -1, fnStrftime),
	volatile("timediff", 2, 2, fnTimediff),
	volatile("current_date", 0, 0, fnDate),
	volatile("current_time", 0, 0, fnTime),
	volatile("current_timestamp", 0, 0, fnDatetime),
	volatile("now", 0, 0, fnDatetime),
}

func fnJulianday(c *Context, a []types.Value) (types.Value, error) {
	var p dateTime
	if isDate(c, a, &p) {
		return types.Null, nil
	}
	return types.NewReal(float64(p.iJD) / 86400000.0), nil
}

func fnUnixepoch(c *Context, a []types.Value) (types.Value, error) {
	var p dateTime
	if isDate(c, a, &p) {
		return types.Null, nil
	}
	if p.useSubsec {
		return types.NewReal(float64(p.iJD-unixEpochJD) / 1000.0), nil
	}
	return types.NewInt(p.iJD/1000 - unixEpochJD/1000), nil
}

// appendYear writes Y as SQLite does: four digits, '-' for negative.
func appendYear(b []byte, y int) []byte {
	if y < 0 {
		b = append(b, '-')
		y = -y
	}
	return append(b, byte('0'+(y/1000)%10), byte('0'+(y/100)%10), byte('0'+(y/10)%10), byte('0'+y%10))
}

func append2(b []byte, v int) []byte { return append(b, byte('0'+(v/10)%10), byte('0'+v%10)) }

func (p *dateTime) appendDate(b []byte) []byte {
	b = appendYear(b, p.Y)
	b = append2(append(b, '-'), p.M)
	return append2(append(b, '-'), p.D)
}

func (p *dateTime) appendTime(b []byte) []byte {
	b = append2(b, p.h)
	b = append2(append(b, ':'), p.m)
	b = append(b, ':')
	if p.useSubsec {
		s := int(1000*p.s + 0.5)
		b = append2(b, s/1000)
		return append(b, '.', byte('0'+(s/100)%10), byte('0'+(s/10)%10), byte('0'+s%10))
	}
	return append2(b, int(p.s))
}

func fnDate(c *Context, a []types.Value) (types.Value, error) {
	var p dateTime
	if isDate(c, a, &p) {
		return types.Null, nil
	}
	p.computeYMD()
	return c.text(p.appendDate(c.buf(16))), nil
}

func fnTime(c *Context, a []types.Value) (types.Value, error) {
	var p dateTime
	if isDate(c, a, &p) {
		return types.Null, nil
	}
	p.computeHMS()
	return c.text(p.appendTime(c.buf(16))), nil
}

func fnDatetime(c *Context, a []types.Value) (types.Value, error) {
	var p dateTime
	if isDate(c, a, &p) {
		return types.Null, nil
	}
	p.computeYMDHMS()
	b := p.appendDate(c.buf(32))
	return c.text(p.appendTime(append(b, ' '))), nil
}

func (p *dateTime) daysAfterJan01() int {
	j := *p
	j.validJD = false
	j.M, j.D = 1, 1
	j.computeJD()
	return int((p.iJD - j.iJD + 43200000) / 86400000)
}

func (p *dateTime) daysAfterMonday() int { return int(((p.iJD + 43200000) / 86400000) % 7) }
func (p *dateTime) daysAfterSunday() int { return int(((p.iJD + 129600000) / 86400000) % 7) }

// isoThursday is the Thursday of p's ISO week (for %G %g %V).
func (p *dateTime) isoThursday() dateTime {
	y := *p
	y.iJD += int64(3-p.daysAfterMonday()) * 86400000
	y.validYMD = false
	y.computeYMD()
	return y
}

func fnStrftime(c *Context, a []types.Value) (types.Value, error) {
	if a[0].IsNull() {
		return types.Null, nil
	}
	var p dateTime
	if isDate(c, a[1:], &p) {
		return types.Null, nil
	}
	p.computeJD()
	p.computeYMDHMS()
	f := cString(textOf(a[0]))
	b := c.buf(len(f) + 16)
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			b = append(b, f[i])
			continue
		}
		i++
		if i >= len(f) {
			return types.Null, nil
		}
		var ok bool
		if b, ok = p.appendField(b, f[i]); !ok {
			return types.Null, nil
		}
	}
	return c.text(b), nil
}

// appendField writes one strftime conversion; ok is false for an
// unknown one (the result is then NULL).
func (p *dateTime) appendField(b []byte, cf byte) ([]byte, bool) {
	switch cf {
	case 'd':
		return appendPad(b, p.D, 2, '0'), true
	case 'e':
		return appendPad(b, p.D, 2, ' '), true
	case 'f':
		s := min(p.s, 59.999)
		return appendSeconds(b, s), true
	case 'F':
		return appendPad(append(appendPad(append(appendPad(b, p.Y, 4, '0'), '-'), p.M, 2, '0'), '-'), p.D, 2, '0'), true
	case 'G':
		return appendPad(b, p.isoThursday().Y, 4, '0'), true
	case 'g':
		return appendPad(b, p.isoThursday().Y%100, 2, '0'), true
	case 'H':
		return appendPad(b, p.h, 2, '0'), true
	case 'k':
		return appendPad(b, p.h, 2, ' '), true
	case 'I', 'l':
		h := p.h
		if h > 12 {
			h -= 12
		}
		if h == 0 {
			h = 12
		}
		if cf == 'I' {
			return appendPad(b, h, 2, '0'), true
		}
		return appendPad(b, h, 2, ' '), true
	case 'j':
		return appendPad(b, p.daysAfterJan01()+1, 3, '0'), true
	case 'J':
		spec := fmtSpec{precision: 16, verb: 'g'}
		return spec.float(b, float64(p.iJD)/86400000.0), true
	case 'm':
		return appendPad(b, p.M, 2, '0'), true
	case 'M':
		return appendPad(b, p.m, 2, '0'), true
	case 'p', 'P':
		return appendAmPm(b, p.h, cf == 'p'), true
	case 'R':
		return appendPad(append(appendPad(b, p.h, 2, '0'), ':'), p.m, 2, '0'), true
	case 's':
		if p.useSubsec {
			spec := fmtSpec{precision: 3, verb: 'f'}
			return spec.float(b, float64(p.iJD-unixEpochJD)/1000.0), true
		}
		return strconv.AppendInt(b, p.iJD/1000-unixEpochJD/1000, 10), true
	case 'S':
		return appendPad(b, int(p.s), 2, '0'), true
	case 'T':
		return appendPad(append(appendPad(append(appendPad(b, p.h, 2, '0'), ':'), p.m, 2, '0'), ':'), int(p.s), 2, '0'), true
	case 'u', 'w':
		d := p.daysAfterSunday()
		if d == 0 && cf == 'u' {
			d = 7
		}
		return append(b, byte('0'+d)), true
	case 'U':
		return appendPad(b, (p.daysAfterJan01()-p.daysAfterSunday()+7)/7, 2, '0'), true
	case 'V':
		y := p.isoThursday()
		return appendPad(b, y.daysAfterJan01()/7+1, 2, '0'), true
	case 'W':
		return appendPad(b, (p.daysAfterJan01()-p.daysAfterMonday()+7)/7, 2, '0'), true
	case 'Y':
		return appendPad(b, p.Y, 4, '0'), true
	case '%':
		return append(b, '%'), true
	}
	return b, false
}

// appendPad writes v as C's "%0Nd" (pad '0') or "%Nd" (pad ' '): at
// least width characters, a '-' sign counting toward the width.
func appendPad(b []byte, v, width int, pad byte) []byte {
	var tmp [24]byte
	digits := strconv.AppendInt(tmp[:0], int64(max(v, -v)), 10)
	n := len(digits)
	if v < 0 {
		n++
	}
	if pad == ' ' {
		for ; n < width; n++ {
			b = append(b, ' ')
		}
	}
	if v < 0 {
		b = append(b, '-')
	}
	if pad == '0' {
		for ; n < width; n++ {
			b = append(b, '0')
		}
	}
	return append(b, digits...)
}

// appendSeconds writes s as "%06.3f" (seconds below 60).
func appendSeconds(b []byte, s float64) []byte {
	spec := fmtSpec{zeroPad: true, width: 6, precision: 3, verb: 'f'}
	return spec.float(b, s)
}

func appendAmPm(b []byte, h int, upper bool) []byte {
	switch {
	case h >= 12 && upper:
		return append(b, "PM"...)
	case h >= 12:
		return append(b, "pm"...)
	case upper:
		return append(b, "AM"...)
	}
	return append(b, "am"...)
}

// fnTimediff is timediff(A, B): "+YYYY-MM-DD HH:MM:SS.SSS" from B to A.
func fnTimediff(c *Context, a []types.Value) (types.Value, error) {
	var d1, d2 dateTime
	if isDate(c, a[:1], &d1) || isDate(c, a[1:2], &d2) {
		return types.Null, nil
	}
	d1.computeYMDHMS()
	d2.computeYMDHMS()
	sign, Y, M := byte('+'), 0, 0
	if d1.iJD >= d2.iJD {
		Y, M = monthsBetween(&d1, &d2, 1)
		d1.iJD -= d2.iJD
	} else {
		sign = '-'
		Y, M = monthsBetween(&d1, &d2, -1)
		d1.iJD = d2.iJD - d1.iJD
	}
	d1.iJD += 148699540800000
	d1.clearYMDHMS()
	d1.computeYMDHMS()
	b := fmt.Appendf(c.buf(32), "%c%04d-%02d-%02d %02d:%02d:%06.3f", sign, Y, M, d1.D-1, d1.h, d1.m, d1.s)
	return c.text(b), nil
}

// monthsBetween moves d2 to d1's year and month (dir 1: d1 later, -1:
// earlier) and returns the whole years and months between them, SQLite's
// timediff steps.
func monthsBetween(d1, d2 *dateTime, dir int) (int, int) {
	Y := (d1.Y - d2.Y) * dir
	if Y != 0 {
		d2.Y = d1.Y
		d2.validJD = false
		d2.computeJD()
	}
	M := (d1.M - d2.M) * dir
	if M < 0 {
		Y--
		M += 12
	}
	if M != 0 {
		d2.M = d1.M
		d2.validJD = false
		d2.computeJD()
	}
	for (dir > 0 && d1.iJD < d2.iJD) || (dir < 0 && d1.iJD > d2.iJD) {
		M--
		if M < 0 {
			M, Y = 11, Y-1
		}
		d2.M -= dir
		if d2.M < 1 {
			d2.M, d2.Y = 12, d2.Y-1
		} else if d2.M > 12 {
			d2.M, d2.Y = 1, d2.Y+1
		}
		d2.validJD = false
		d2.computeJD()
	}
	return Y, M
}

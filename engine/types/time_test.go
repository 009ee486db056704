package types

import (
	"testing"
	"time"
)

func TestFormatTime_RoundTrip_UTC(t *testing.T) {
	loc := time.FixedZone("X", 5*3600)
	in := time.Date(2024, 2, 29, 23, 59, 58, 123456000, loc)
	s := FormatTime(in)
	if s != "2024-02-29 18:59:58.123456+00:00" {
		t.Fatalf("FormatTime = %q", s)
	}
	got, err := ParseTime(s)
	if err != nil || !got.Equal(in) || got.Location() != time.UTC {
		t.Fatalf("ParseTime(%q) = %v, %v", s, got, err)
	}
	if string(AppendTime(nil, in)) != s {
		t.Fatal("AppendTime differs")
	}
}

func TestFormatTime_Order_IsTimeOrder(t *testing.T) {
	base := time.Date(2020, 1, 1, 0, 0, 5, 0, time.UTC)
	times := []time.Time{base, base.Add(time.Nanosecond), base.Add(500 * time.Millisecond), base.Add(time.Second)}
	for i := 1; i < len(times); i++ {
		if !(FormatTime(times[i-1]) < FormatTime(times[i])) {
			t.Errorf("%s !< %s", FormatTime(times[i-1]), FormatTime(times[i]))
		}
	}
}

func TestParseTime_SQLiteForms(t *testing.T) {
	want := time.Date(2021, 3, 4, 5, 6, 7, 0, time.UTC)
	for _, s := range []string{
		"2021-03-04 05:06:07", "2021-03-04T05:06:07", "2021-03-04 05:06:07Z",
		"2021-03-04T05:06:07.000", "2021-03-04 07:06:07+02:00", " 2021-03-04 05:06:07 ",
	} {
		got, err := ParseTime(s)
		if err != nil || !got.Equal(want) {
			t.Errorf("ParseTime(%q) = %v, %v", s, got, err)
		}
	}
	if d, err := ParseTime("2021-03-04"); err != nil || !d.Equal(time.Date(2021, 3, 4, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("date only: %v %v", d, err)
	}
	if _, err := ParseTime("yesterday"); err != ErrBadTime {
		t.Errorf("bad time err = %v", err)
	}
}

func TestTimeOf_Kinds(t *testing.T) {
	if tm, ok := TimeOf(NewInt(86400)); !ok || !tm.Equal(time.Unix(86400, 0)) {
		t.Error("int")
	}
	if tm, ok := TimeOf(NewReal(2460370.0732667823)); !ok || !tm.Equal(time.Date(2024, 2, 29, 13, 45, 30, 250e6, time.UTC)) {
		t.Errorf("real julian day: %v", tm)
	}
	if _, ok := TimeOf(NewReal(-1)); ok {
		t.Error("negative julian day")
	}
	if _, ok := TimeOf(Null); ok {
		t.Error("null")
	}
	if tm, ok := TimeOf(NewTime(time.Unix(7, 0))); !ok || !tm.Equal(time.Unix(7, 0)) {
		t.Error("NewTime")
	}
}

func TestColumnType_StoreTime_DateColumns(t *testing.T) {
	mid := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	if v := ParseColumnType("DATE").StoreTime(mid); v.Str() != "2024-03-01" {
		t.Errorf("DATE midnight = %s", v.Str())
	}
	noon := mid.Add(12 * time.Hour)
	if v := ParseColumnType("date").StoreTime(noon); v.Str() != "2024-03-01 12:00:00+00:00" {
		t.Errorf("DATE noon = %s", v.Str())
	}
	if v := ParseColumnType("DATETIME").StoreTime(mid); v.Str() != "2024-03-01 00:00:00+00:00" {
		t.Errorf("DATETIME midnight = %s", v.Str())
	}
	if got, err := ParseTime("2024-03-01"); err != nil || !got.Equal(mid) {
		t.Errorf("round trip of a DATE: %v %v", got, err)
	}
}

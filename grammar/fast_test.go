package grammar

import (
	"fmt"
	"reflect"
	"testing"
)

// checkFastMatches asserts that, when the fast path accepts sql, it builds
// exactly the structs participle builds.
func checkFastMatches(t testing.TB, sql string) (covered bool) {
	t.Helper()
	if fast, ok := fastScript(sql); ok {
		slow, err := slowScript(sql)
		if err != nil {
			t.Fatalf("fast path accepts %q, participle rejects it: %v", sql, err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("fast path reads %q differently: %s", sql, structDiff("", reflect.ValueOf(fast), reflect.ValueOf(slow)))
		}
		covered = true
	}
	if fast, ok := fastExprRoot(sql); ok {
		slow, err := slowExprRoot(sql)
		if err != nil {
			t.Fatalf("fast path accepts expression %q, participle rejects it: %v", sql, err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("fast path reads expression %q differently: %s", sql, structDiff("", reflect.ValueOf(fast), reflect.ValueOf(slow)))
		}
	}
	return covered
}

func TestFastParse_MatchesParticiple(t *testing.T) {
	total, covered := 0, 0
	for _, pattern := range []string{"parse/*.sql", "corpus/*.sql", "errors.sql"} {
		for _, file := range sqlFiles(t, pattern) {
			for _, c := range readCases(t, file) {
				total++
				if checkFastMatches(t, c) {
					covered++
				}
			}
		}
	}
	for _, c := range []string{benchPointSelect, benchGormInsert, benchAnalytic} {
		if !checkFastMatches(t, c) {
			t.Errorf("fast path does not cover %q", c)
		}
	}
	t.Logf("fast path covers %d of %d cases", covered, total)
}

// structDiff describes the first difference between a and b.
func structDiff(path string, a, b reflect.Value) string {
	if a.Kind() != b.Kind() {
		return path + ": kinds differ"
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return fmt.Sprintf("%s: fast nil=%v, participle nil=%v", path, a.IsNil(), b.IsNil())
			}
			return ""
		}
		return structDiff(path, a.Elem(), b.Elem())
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if d := structDiff(path+"."+a.Type().Field(i).Name, a.Field(i), b.Field(i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return fmt.Sprintf("%s: fast len %d nil=%v, participle len %d nil=%v", path, a.Len(), a.IsNil(), b.Len(), b.IsNil())
		}
		for i := 0; i < a.Len(); i++ {
			if d := structDiff(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i)); d != "" {
				return d
			}
		}
		return ""
	}
	if !reflect.DeepEqual(a.Interface(), b.Interface()) {
		return fmt.Sprintf("%s: fast %v, participle %v", path, a.Interface(), b.Interface())
	}
	return ""
}

package pagecache

import "errors"

// ErrPinned is returned by Create when the key is cached and pinned, so its
// contents cannot be replaced.
var ErrPinned = errors.New("pagecache: page is pinned")

// ErrConfig is returned by New for an invalid Config.
var ErrConfig = errors.New("pagecache: invalid config")

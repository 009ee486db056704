package plan

// FoldValue exposes foldValue to the external tests, which compare it
// with the executor's evaluation.
var FoldValue = foldValue

package adapteval

// CountTokens exports countTokens (cl100k_base) to the tests.
var CountTokens = countTokens

// ReplaceInvalidUTF8 exports replaceInvalidUTF8 to the tests.
var ReplaceInvalidUTF8 = replaceInvalidUTF8

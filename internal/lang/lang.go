// Package lang detects a file's language from its name and content.
package lang

// Package join is joind's join operators (placeholder doc, expanded below).
package join

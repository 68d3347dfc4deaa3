package watch

import "golang.org/x/sys/unix"

// Magic numbers of file systems whose events do not cover every change
// (statfs(2), linux/magic.h): changes made by another machine, or behind
// a FUSE daemon, raise no inotify event here.
var remoteMagic = map[int64]string{
	0x6969:     "nfs",
	0x517B:     "smb",
	0xFF534D42: "cifs",
	0xFE534D42: "smb2",
	0x65735546: "fuse",
	0x01021997: "9p",
	0x73757245: "coda",
	0x5346414F: "afs",
	0x6B414653: "afs",
	0x47504653: "gpfs",
	0x0BD00BD0: "lustre",
	0x00C36400: "ceph",
}

// remoteFileSystem reports whether dir is on such a file system, and its
// kind.
func remoteFileSystem(dir string) (string, bool) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return "", false
	}
	kind, ok := remoteMagic[int64(st.Type)]
	return kind, ok
}

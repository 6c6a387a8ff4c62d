/* SPDX-License-Identifier: GPL-2.0 */
/*
 * readahead: the read_ahead_kb of the block device under --file, which
 * sets how much one file fault reads (the lab's virtio-blk disk defaults
 * to 8192 on 7.3; phones run 128-512).  --read-ahead-kb sets it for the
 * run and puts the old value back at the end.
 */
#ifndef FL_READAHEAD_H
#define FL_READAHEAD_H

struct fl_readahead {
	char path[128];		/* .../queue/read_ahead_kb, "" if none found */
	long was;		/* its value before the run, -1 if unread */
	int changed;		/* we wrote it: restore was */
};

/*
 * Find the queue of the device holding @file (the disk's, for a
 * partition) and read its read_ahead_kb; if @kb >= 0, write @kb and make
 * @fd, the file already open, take it: a file's readahead window is set
 * when it is opened (POSIX_FADV_NORMAL sets it again).
 * Returns the value in effect (>= 0), -1 if the file's device has no
 * queue (tmpfs, overlay: a warning when @kb was asked for), or -2 after
 * one line on stderr when @kb could not be written.
 */
long fl_readahead_set(struct fl_readahead *ra, const char *file, int fd, long kb);
/* Put back the value fl_readahead_set() replaced, if it did. */
void fl_readahead_restore(struct fl_readahead *ra);

#endif /* FL_READAHEAD_H */

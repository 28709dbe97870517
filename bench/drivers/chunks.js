'use strict';
// Reads FILE in blocks that end at a newline (so no line is cut) and hands
// each block to `fn` as a string. Keeps memory flat on large corpora.
const fs = require('fs');

module.exports = function forEachBlock(path, fn) {
  const fd = fs.openSync(path, 'r');
  const size = 1 << 20;
  const buf = Buffer.allocUnsafe(size);
  let carry = Buffer.alloc(0);
  let bytes = 0;
  for (;;) {
    const n = fs.readSync(fd, buf, 0, size, null);
    if (n === 0) break;
    bytes += n;
    let data = carry.length ? Buffer.concat([carry, buf.subarray(0, n)]) : buf.subarray(0, n);
    const nl = data.lastIndexOf(10);
    if (nl < 0 && data.length < (16 << 20)) {
      carry = Buffer.from(data);
      continue;
    }
    const end = nl < 0 ? data.length : nl + 1;
    fn(data.toString('utf8', 0, end));
    carry = Buffer.from(data.subarray(end));
  }
  if (carry.length) fn(carry.toString('utf8'));
  fs.closeSync(fd);
  return bytes;
};

/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.IFileInputStream;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.security.IntermediateEncryptedStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A map output too large for memory: its IFile bytes (still compressed, checksum verified on the
 * way) go to a temporary local file, renamed into place when the fetch commits.
 */
class MarcoOnDiskMapOutput<K, V> extends MapOutput<K, V> {
  private static final Logger LOG = LoggerFactory.getLogger(MarcoOnDiskMapOutput.class);
  private static final int COPY_BUFFER_BYTES = 64 * 1024;

  private final MarcoMergeManager<K, V> manager;
  private final JobConf conf;
  private final FileSystem fs;
  private final Path path;
  private final Path tmpPath;

  MarcoOnDiskMapOutput(
      TaskAttemptID mapId,
      long size,
      MarcoMergeManager<K, V> manager,
      JobConf conf,
      FileSystem fs,
      Path path,
      int fetcher) {
    super(mapId, size, true);
    this.manager = manager;
    this.conf = conf;
    this.fs = fs;
    this.path = path;
    this.tmpPath = path.suffix("." + fetcher + ".tmp");
  }

  @Override
  public void shuffle(
      MapHost host,
      InputStream input,
      long compressedLength,
      long decompressedLength,
      ShuffleClientMetrics metrics,
      Reporter reporter)
      throws IOException {
    IFileInputStream checked = new IFileInputStream(input, compressedLength, conf);
    long left = compressedLength;
    try (OutputStream disk =
        IntermediateEncryptedStream.wrapIfNecessary(
            conf, MarcoLocalFiles.create(fs, tmpPath), tmpPath)) {
      byte[] buf = new byte[COPY_BUFFER_BYTES];
      while (left > 0) {
        int n = checked.readWithChecksum(buf, 0, (int) Math.min(left, buf.length));
        if (n < 0) {
          break;
        }
        disk.write(buf, 0, n);
        left -= n;
        metrics.inputBytes(n);
        reporter.progress();
      }
    }
    if (left != 0) {
      throw new IOException(
          "Incomplete map output received for "
              + getMapId()
              + " from "
              + host.getHostName()
              + " ("
              + left
              + " bytes missing of "
              + compressedLength
              + ")");
    }
  }

  @Override
  public void commit() throws IOException {
    if (!fs.rename(tmpPath, path)) {
      throw new IOException("Could not rename " + tmpPath + " to " + path);
    }
    manager.commitOnDisk(getMapId(), path, getSize());
  }

  @Override
  public void abort() {
    try {
      fs.delete(tmpPath, false);
    } catch (IOException e) {
      LOG.info("Failure to clean up {}", tmpPath, e);
    }
  }

  @Override
  public String getDescription() {
    return "DISK";
  }
}

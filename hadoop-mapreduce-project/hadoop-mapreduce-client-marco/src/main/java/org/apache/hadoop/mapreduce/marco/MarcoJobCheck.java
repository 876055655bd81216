package org.apache.hadoop.mapreduce.marco;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRConfig;

/**
 * The checks a MaRCO job's reduce tasks make when they start, made once for the whole job: by
 * the distribution's AppMaster before any task runs (so a bad value fails the job at once), and
 * by every reduce task (so the plugin alone, under Hadoop's own AppMaster, still says why).
 */
public final class MarcoJobCheck {
  /** How every MaRCO configuration error starts, in logs and job diagnostics. */
  public static final String ERROR_PREFIX = "MaRCO configuration error: ";

  private MarcoJobCheck() {
  }

  /** True when the job's reduces use the MaRCO shuffle consumer. */
  public static boolean usesMarcoShuffle(Configuration conf) {
    return MarcoConfig.SHUFFLE_PLUGIN_CLASS.equals(
        conf.getTrimmed(MRConfig.SHUFFLE_CONSUMER_PLUGIN));
  }

  /**
   * Returns what is wrong with a MaRCO job's {@code mapreduce.marco.*} settings or partial
   * reducer (prefixed with {@link #ERROR_PREFIX}), or null when nothing is, or the job does not
   * use MaRCO.
   */
  public static String problem(Configuration conf) {
    if (!usesMarcoShuffle(conf)) {
      return null;
    }
    try {
      MarcoSettings settings = MarcoSettings.from(conf);
      if (settings.isEnabled()) {
        PartialReducerSpec.resolve(conf instanceof JobConf ? (JobConf) conf : new JobConf(conf),
            settings);
      }
      return null;
    } catch (IllegalArgumentException e) {
      return ERROR_PREFIX + e.getMessage();
    }
  }
}

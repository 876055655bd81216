/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.v2.app;

import java.lang.reflect.Field;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.ipc.CallerContext;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoJobCheck;
import org.apache.hadoop.mapreduce.marco.MarcoVersion;
import org.apache.hadoop.mapreduce.v2.app.client.ClientService;
import org.apache.hadoop.mapreduce.v2.app.job.Job;
import org.apache.hadoop.mapreduce.v2.app.job.JobStateInternal;
import org.apache.hadoop.mapreduce.v2.app.rm.ContainerAllocator;
import org.apache.hadoop.mapreduce.v2.app.rm.preemption.AMPreemptionPolicy;
import org.apache.hadoop.mapreduce.v2.util.MRApps;
import org.apache.hadoop.mapreduce.v2.util.MRWebAppUtil;
import org.apache.hadoop.util.ExitUtil;
import org.apache.hadoop.util.ShutdownHookManager;
import org.apache.hadoop.util.VersionInfo;
import org.apache.hadoop.yarn.YarnUncaughtExceptionHandler;
import org.apache.hadoop.yarn.api.ApplicationConstants;
import org.apache.hadoop.yarn.api.ApplicationConstants.Environment;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.util.SystemClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MapReduce AppMaster with MaRCO's reduce staggering. Hadoop (3.3 to 3.5) always launches
 * {@code MRAppMaster} by name, but appends the job's {@code yarn.app.mapreduce.am.command-opts}
 * right before that name; ending those options with this class's name makes the JVM start this
 * class instead, with Hadoop's class name as its (ignored) argument. The same hook Apache Uniffle
 * and Celeborn use.
 *
 * <p>Only the container allocator differs from Hadoop's: a {@link MarcoAllocatorRouter} creates
 * {@link org.apache.hadoop.mapreduce.v2.app.rm.MarcoContainerAllocator}, which staggers MaRCO
 * jobs' reduces and behaves exactly as Hadoop's allocator for all other jobs.
 */
@InterfaceAudience.LimitedPrivate({"MapReduce"})
@InterfaceStability.Unstable
public class MarcoMRAppMaster extends MRAppMaster {
  private static final Logger LOG = LoggerFactory.getLogger(MarcoMRAppMaster.class);

  private final String nmHost;
  private final int nmPort;
  private final int nmHttpPort;
  private final ContainerId amContainerId;
  private volatile AMPreemptionPolicy preemptionPolicy;
  private volatile MarcoAllocatorRouter allocatorRouter;

  public MarcoMRAppMaster(
      ApplicationAttemptId applicationAttemptId,
      ContainerId containerId,
      String nmHost,
      int nmPort,
      int nmHttpPort,
      long appSubmitTime) {
    super(
        applicationAttemptId,
        containerId,
        nmHost,
        nmPort,
        nmHttpPort,
        SystemClock.getInstance(),
        appSubmitTime);
    this.nmHost = nmHost;
    this.nmPort = nmPort;
    this.nmHttpPort = nmHttpPort;
    this.amContainerId = containerId;
  }

  /**
   * Makes jobs submitted with {@code conf} run this AppMaster: appends the class name to
   * {@code yarn.app.mapreduce.am.command-opts} (JVM options stay in front of it). Idempotent.
   */
  public static void useFor(Configuration conf) {
    String opts =
        conf.getTrimmed(MRJobConfig.MR_AM_COMMAND_OPTS, MRJobConfig.DEFAULT_MR_AM_COMMAND_OPTS);
    if (!opts.endsWith(MarcoMRAppMaster.class.getName())) {
      conf.set(MRJobConfig.MR_AM_COMMAND_OPTS, opts + " " + MarcoMRAppMaster.class.getName());
    }
  }

  /**
   * A MaRCO job whose {@code mapreduce.marco.*} settings or partial reducer are wrong is created
   * FAILED with the reason as its diagnostic: no task starts, and the client sees the message.
   * A valid one gets {@code mapreduce.marco.reduce.jvm.options} on its reduces' command line.
   */
  @Override
  protected Job createJob(Configuration conf, JobStateInternal forcedState, String diagnostic) {
    String problem = forcedState == null ? MarcoJobCheck.problem(conf) : null;
    if (problem != null) {
      LOG.error(problem);
      return super.createJob(conf, JobStateInternal.FAILED, problem);
    }
    String added = MarcoReduceJvmOptions.addTo(conf);
    if (!added.isEmpty()) {
      LOG.info(
          "MaRCO: the job's reduces start with JVM options {} ({})",
          added,
          MarcoConfig.REDUCE_JVM_OPTIONS);
    }
    return super.createJob(conf, forcedState, diagnostic);
  }

  @Override
  protected ContainerAllocator createContainerAllocator(
      ClientService clientService, AppContext context) {
    allocatorRouter =
        new MarcoAllocatorRouter(
            this,
            clientService,
            context,
            () -> preemptionPolicy,
            nmHost,
            nmPort,
            nmHttpPort,
            amContainerId);
    return allocatorRouter;
  }

  /** Keeps the policy Hadoop creates so the allocator gets the same one the task listener has. */
  @Override
  protected AMPreemptionPolicy createPreemptionPolicy(Configuration conf) {
    preemptionPolicy = super.createPreemptionPolicy(conf);
    return preemptionPolicy;
  }

  /**
   * Hadoop forwards this to its own allocator router only; ours must learn it too, or a failing
   * AM attempt that is not the last would unregister and so prevent the retry (AM recovery).
   */
  @Override
  public void notifyIsLastAMRetry(boolean lastRetry) {
    if (allocatorRouter != null) {
      allocatorRouter.setShouldUnregister(lastRetry);
    }
    super.notifyIsLastAMRetry(lastRetry);
  }

  /** Mirrors {@code MRAppMaster.main}, constructing this class. */
  public static void main(String[] args) {
    try {
      MarcoVersion.checkRunningHadoop();
      LOG.info("MarcoMRAppMaster starting: {}", MarcoVersion.describe());
      markMainStarted();
      Thread.setDefaultUncaughtExceptionHandler(new YarnUncaughtExceptionHandler());
      ContainerId containerId =
          ContainerId.fromString(requiredEnv(Environment.CONTAINER_ID.name()));
      String nodeHost = requiredEnv(Environment.NM_HOST.name());
      int nodePort = Integer.parseInt(requiredEnv(Environment.NM_PORT.name()));
      int nodeHttpPort = Integer.parseInt(requiredEnv(Environment.NM_HTTP_PORT.name()));
      long appSubmitTime = Long.parseLong(requiredEnv(ApplicationConstants.APP_SUBMIT_TIME_ENV));
      ApplicationAttemptId attemptId = containerId.getApplicationAttemptId();
      CallerContext.setCurrent(new CallerContext.Builder("mr_appmaster_" + attemptId).build());

      MarcoMRAppMaster appMaster =
          new MarcoMRAppMaster(
              attemptId, containerId, nodeHost, nodePort, nodeHttpPort, appSubmitTime);
      ShutdownHookManager.get().addShutdownHook(new SignalHook(appMaster), SHUTDOWN_HOOK_PRIORITY);
      JobConf conf = new JobConf(new YarnConfiguration());
      conf.addResource(new Path(MRJobConfig.JOB_CONF_FILE));
      MRWebAppUtil.initialize(conf);
      String systemPropsToLog = MRApps.getSystemPropertiesToLog(conf);
      if (systemPropsToLog != null) {
        LOG.info(systemPropsToLog);
      }
      String jobUserName = System.getenv(Environment.USER.name());
      conf.set(MRJobConfig.USER_NAME, jobUserName);
      initAndStartAppMaster(appMaster, conf, jobUserName);
    } catch (Throwable t) {
      LOG.error("Error starting MarcoMRAppMaster", t);
      ExitUtil.terminate(1, t);
    }
  }

  /**
   * {@code MRAppMaster} only calls {@code System.exit} at the end of a job when its own
   * {@code main} ran (otherwise it assumes a unit test); without this the AM JVM would linger.
   */
  private static void markMainStarted() throws ReflectiveOperationException {
    try {
      Field mainStarted = MRAppMaster.class.getDeclaredField("mainStarted");
      mainStarted.setAccessible(true);
      mainStarted.setBoolean(null, true);
    } catch (NoSuchFieldException e) {
      throw new IllegalStateException(
          "MRAppMaster of Hadoop "
              + VersionInfo.getVersion()
              + " has no field mainStarted, which MarcoMRAppMaster (built against Hadoop "
              + MarcoVersion.builtAgainstHadoop()
              + ") needs; remove "
              + MarcoMRAppMaster.class.getName()
              + " from yarn.app.mapreduce.am.command-opts",
          e);
    }
  }

  private static String requiredEnv(String name) {
    String value = System.getenv(name);
    if (value == null) {
      throw new IllegalStateException(
          "Environment variable "
              + name
              + " is not set: "
              + MarcoMRAppMaster.class.getName()
              + " must be launched by YARN as a MapReduce AM");
    }
    return value;
  }

  /**
   * On SIGTERM tells our allocator (which Hadoop's hook cannot see) that the AM was signalled,
   * then runs Hadoop's own hook (last-retry notice, stop, committer abort).
   */
  private static final class SignalHook implements Runnable {
    private final MarcoMRAppMaster appMaster;
    private final Runnable hadoopHook;

    SignalHook(MarcoMRAppMaster appMaster) {
      this.appMaster = appMaster;
      this.hadoopHook = new MRAppMasterShutdownHook(appMaster);
    }

    @Override
    public void run() {
      MarcoAllocatorRouter router = appMaster.allocatorRouter;
      if (router != null) {
        router.setSignalled(true);
      }
      hadoopHook.run();
    }
  }
}

/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.v2.app;

import java.util.function.Supplier;
import org.apache.hadoop.mapreduce.v2.app.client.ClientService;
import org.apache.hadoop.mapreduce.v2.app.local.LocalContainerAllocator;
import org.apache.hadoop.mapreduce.v2.app.rm.ContainerAllocator;
import org.apache.hadoop.mapreduce.v2.app.rm.ContainerAllocatorEvent;
import org.apache.hadoop.mapreduce.v2.app.rm.MarcoContainerAllocator;
import org.apache.hadoop.mapreduce.v2.app.rm.RMCommunicator;
import org.apache.hadoop.mapreduce.v2.app.rm.RMHeartbeatHandler;
import org.apache.hadoop.mapreduce.v2.app.rm.preemption.AMPreemptionPolicy;
import org.apache.hadoop.mapreduce.v2.util.MRApps;
import org.apache.hadoop.service.AbstractService;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.service.ServiceOperations;
import org.apache.hadoop.yarn.api.records.ContainerId;

/**
 * What Hadoop's private {@code MRAppMaster.ContainerAllocatorRouter} does, with
 * {@link MarcoContainerAllocator} in place of {@code RMContainerAllocator}: the allocator is
 * chosen at start, once the job is initialised and it is known whether it runs as an uber task.
 */
final class MarcoAllocatorRouter extends AbstractService
    implements ContainerAllocator, RMHeartbeatHandler {
  private final MRAppMaster appMaster;
  private final ClientService clientService;
  private final AppContext context;
  private final Supplier<AMPreemptionPolicy> preemptionPolicy;
  private final String nmHost;
  private final int nmPort;
  private final int nmHttpPort;
  private final ContainerId amContainerId;
  private volatile RMCommunicator allocator;

  /** A last-retry notice that came before the allocator existed; applied when it is created. */
  private volatile Boolean shouldUnregister;

  MarcoAllocatorRouter(
      MRAppMaster appMaster,
      ClientService clientService,
      AppContext context,
      Supplier<AMPreemptionPolicy> preemptionPolicy,
      String nmHost,
      int nmPort,
      int nmHttpPort,
      ContainerId amContainerId) {
    super(MarcoAllocatorRouter.class.getName());
    this.appMaster = appMaster;
    this.clientService = clientService;
    this.context = context;
    this.preemptionPolicy = preemptionPolicy;
    this.nmHost = nmHost;
    this.nmPort = nmPort;
    this.nmHttpPort = nmHttpPort;
    this.amContainerId = amContainerId;
  }

  @Override
  protected void serviceStart() throws Exception {
    if (context.getJob(appMaster.getJobId()).isUber()) {
      MRApps.setupDistributedCacheLocal(getConfig());
      allocator =
          new LocalContainerAllocator(
              clientService, context, nmHost, nmPort, nmHttpPort, amContainerId);
    } else {
      allocator = new MarcoContainerAllocator(clientService, context, preemptionPolicy.get());
    }
    if (shouldUnregister != null) {
      allocator.setShouldUnregister(shouldUnregister);
    }
    allocator.init(getConfig());
    allocator.start();
    super.serviceStart();
  }

  @Override
  protected void serviceStop() throws Exception {
    ServiceOperations.stop((Service) allocator);
    super.serviceStop();
  }

  @Override
  public void handle(ContainerAllocatorEvent event) {
    ((ContainerAllocator) allocator).handle(event);
  }

  void setSignalled(boolean signalled) {
    if (allocator != null) {
      allocator.setSignalled(signalled);
    }
  }

  void setShouldUnregister(boolean unregister) {
    shouldUnregister = unregister;
    if (allocator != null) {
      allocator.setShouldUnregister(unregister);
    }
  }

  @Override
  public long getLastHeartbeatTime() {
    return allocator.getLastHeartbeatTime();
  }

  @Override
  public void runOnNextHeartbeat(Runnable callback) {
    allocator.runOnNextHeartbeat(callback);
  }
}

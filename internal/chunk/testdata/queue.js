#!/usr/bin/env node
'use strict';

const fs = require('fs');
const path = require('path');

const DEFAULT_CONCURRENCY = 4;
let jobCounter = 0;

/**
 * Sleeps for ms milliseconds.
 * @param {number} ms
 */
function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * A job queue that runs at most `concurrency` jobs at a time and retries
 * failed jobs with exponential back-off.
 */
class JobQueue {
  #pending = [];
  #running = 0;

  constructor({ concurrency = DEFAULT_CONCURRENCY, retries = 3, log = console } = {}) {
    this.concurrency = concurrency;
    this.retries = retries;
    this.log = log;
    this.results = new Map();
  }

  /**
   * Adds a job. Returns its id.
   * @param {() => Promise<unknown>} fn
   */
  push(fn, { name = 'job' } = {}) {
    const id = ++jobCounter;
    this.#pending.push({ id, name, fn, attempt: 0 });
    this.#drain();
    return id;
  }

  get size() {
    return this.#pending.length + this.#running;
  }

  // Runs pending jobs while there is capacity.
  #drain() {
    while (this.#running < this.concurrency && this.#pending.length > 0) {
      const job = this.#pending.shift();
      this.#running++;
      this.#run(job).finally(() => {
        this.#running--;
        this.#drain();
      });
    }
  }

  async #run(job) {
    try {
      const value = await job.fn();
      this.results.set(job.id, { ok: true, value });
    } catch (err) {
      job.attempt++;
      if (job.attempt > this.retries) {
        this.log.error(`${job.name} #${job.id} failed after ${job.attempt} attempts:`, err);
        this.results.set(job.id, { ok: false, error: err });
        return;
      }
      const delay = 100 * 2 ** job.attempt;
      this.log.warn(`${job.name} #${job.id} failed, retrying in ${delay}ms`);
      await sleep(delay);
      this.#pending.push(job);
    }
  }

  /** Drops every job that has not started yet. Returns how many. */
  clear() {
    const dropped = this.#pending.length;
    this.#pending = [];
    return dropped;
  }

  /** Resolves once every queued job has settled. */
  async idle() {
    while (this.size > 0) {
      await sleep(10);
    }
    return this.results;
  }

  /** Writes the results as JSON lines to file. */
  async dump(file) {
    const lines = [];
    for (const [id, result] of this.results) {
      lines.push(JSON.stringify({ id, ...result, error: result.error && String(result.error) }));
    }
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    await fs.promises.writeFile(file, lines.join('\n') + '\n');
  }
}

// fromFile builds a queue whose settings come from a JSON file.
const fromFile = async (file) => {
  const raw = await fs.promises.readFile(file, 'utf8');
  return new JobQueue(JSON.parse(raw));
};

/** Stops starting new jobs; running ones finish. */
JobQueue.prototype.pause = function pause() {
  this.concurrency = 0;
};

module.exports = { JobQueue, fromFile, sleep };

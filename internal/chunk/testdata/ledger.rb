# frozen_string_literal: true

require "bigdecimal"
require "time"

# Bookkeeping primitives.
module Ledger
  VERSION = "1.4.0"

  # Raised when a transaction does not balance.
  class UnbalancedError < StandardError; end

  # A double-entry ledger: every transaction debits and credits accounts
  # by the same total.
  class Book
    include Enumerable

    attr_reader :name, :currency

    # Creates an empty book.
    def initialize(name, currency: "EUR")
      @name = name
      @currency = currency
      @entries = []
      @balances = Hash.new { |h, k| h[k] = BigDecimal("0") }
    end

    # Records a transaction. +lines+ maps account names to amounts;
    # positive amounts are debits, negative ones credits.
    def record(description, lines, at: Time.now)
      total = lines.values.sum(BigDecimal("0"))
      raise UnbalancedError, "#{description} is off by #{total}" unless total.zero?

      entry = { description: description, lines: lines.dup.freeze, at: at }
      @entries << entry
      lines.each { |account, amount| @balances[account] += amount }
      entry
    end

    # The balance of one account.
    def balance(account)
      @balances[account]
    end

    def each(&block)
      @entries.each(&block)
    end

    # Entries touching account, oldest first.
    def history(account)
      select { |e| e[:lines].key?(account) }.sort_by { |e| e[:at] }
    end

    def accounts
      @balances.keys.sort
    end

    # A trial balance: every account with its balance, and the grand total,
    # which is zero in a healthy book.
    def trial_balance
      rows = accounts.map { |a| [a, balance(a)] }
      rows << ["TOTAL", rows.sum(BigDecimal("0")) { |_, b| b }]
      rows
    end

    # Moves amount from one account to another.
    def transfer(from, to, amount, description: "transfer")
      record(description, { to => amount, from => -amount })
    end

    def to_s
      "#<Ledger::Book #{name} (#{@entries.size} entries, #{currency})>"
    end

    # Loads a book from CSV lines "date,description,account,amount".
    def self.from_csv(name, io)
      book = new(name)
      io.each_line.drop(1).group_by { |l| l.split(",")[0..1] }.each do |(date, desc), rows|
        lines = rows.to_h do |row|
          _, _, account, amount = row.chomp.split(",")
          [account, BigDecimal(amount)]
        end
        book.record(desc, lines, at: Time.parse(date))
      end
      book
    end

    private

    def audit_log
      @audit_log ||= []
    end
  end

  def self.open(name, &block)
    book = Book.new(name)
    block ? block.call(book) : book
  end
end

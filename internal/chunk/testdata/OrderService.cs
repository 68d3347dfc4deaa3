using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;

namespace Shop.Orders
{
    /// <summary>The states an order goes through.</summary>
    public enum OrderStatus
    {
        Pending,
        Paid,
        Shipped,
        Cancelled,
    }

    public record OrderLine(string Sku, int Quantity, decimal UnitPrice);

    /// <summary>Persists orders.</summary>
    public interface IOrderRepository
    {
        Task<Order?> FindAsync(Guid id);
        Task SaveAsync(Order order);
    }

    /// <summary>
    /// Places, pays and cancels orders, enforcing the order life cycle.
    /// </summary>
    [Serializable]
    public sealed class OrderService
    {
        private readonly IOrderRepository _repository;
        private readonly TimeProvider _clock;

        public const int MaxLines = 100;

        public event EventHandler<Order>? StatusChanged;

        public OrderService(IOrderRepository repository, TimeProvider clock)
        {
            _repository = repository ?? throw new ArgumentNullException(nameof(repository));
            _clock = clock;
        }

        /// <summary>Creates a pending order from lines.</summary>
        /// <exception cref="ArgumentException">When there are no lines or too many.</exception>
        public async Task<Order> PlaceAsync(IReadOnlyList<OrderLine> lines)
        {
            if (lines.Count == 0 || lines.Count > MaxLines)
            {
                throw new ArgumentException($"an order needs 1 to {MaxLines} lines", nameof(lines));
            }
            var order = new Order(Guid.NewGuid(), lines.ToList(), _clock.GetUtcNow());
            await _repository.SaveAsync(order);
            return order;
        }

        /// <summary>Marks an order paid.</summary>
        public async Task PayAsync(Guid id, decimal amount)
        {
            var order = await LoadAsync(id);
            if (order.Status != OrderStatus.Pending)
            {
                throw new InvalidOperationException($"order {id} is {order.Status}, not pending");
            }
            if (amount != order.Total)
            {
                throw new ArgumentException($"expected {order.Total}, got {amount}", nameof(amount));
            }
            await TransitionAsync(order, OrderStatus.Paid);
        }

        public async Task CancelAsync(Guid id)
        {
            var order = await LoadAsync(id);
            if (order.Status is OrderStatus.Shipped or OrderStatus.Cancelled)
            {
                throw new InvalidOperationException($"order {id} cannot be cancelled once {order.Status}");
            }
            await TransitionAsync(order, OrderStatus.Cancelled);
        }

        /// <summary>Marks a paid order shipped.</summary>
        public async Task ShipAsync(Guid id)
        {
            var order = await LoadAsync(id);
            if (order.Status != OrderStatus.Paid)
            {
                throw new InvalidOperationException($"order {id} must be paid before shipping");
            }
            await TransitionAsync(order, OrderStatus.Shipped);
        }

#if FEATURE_REFUNDS
        /// <summary>Refunds a paid order that has not shipped yet.</summary>
        public async Task RefundAsync(Guid id)
        {
            var order = await LoadAsync(id);
            if (order.Status != OrderStatus.Paid)
            {
                throw new InvalidOperationException($"order {id} cannot be refunded");
            }
            await TransitionAsync(order, OrderStatus.Cancelled);
        }
#endif

        public decimal Revenue(IEnumerable<Order> orders) =>
            orders.Where(o => o.Status is OrderStatus.Paid or OrderStatus.Shipped).Sum(o => o.Total);

        private async Task<Order> LoadAsync(Guid id) =>
            await _repository.FindAsync(id) ?? throw new KeyNotFoundException($"no order {id}");

        private async Task TransitionAsync(Order order, OrderStatus next)
        {
            order.Status = next;
            order.UpdatedAt = _clock.GetUtcNow();
            await _repository.SaveAsync(order);
            StatusChanged?.Invoke(this, order);
        }
    }

    public class Order
    {
        public Order(Guid id, List<OrderLine> lines, DateTimeOffset createdAt)
        {
            Id = id;
            Lines = lines;
            CreatedAt = UpdatedAt = createdAt;
        }

        public Guid Id { get; }
        public List<OrderLine> Lines { get; }
        public OrderStatus Status { get; set; } = OrderStatus.Pending;
        public DateTimeOffset CreatedAt { get; }
        public DateTimeOffset UpdatedAt { get; set; }
        public decimal Total => Lines.Sum(l => l.Quantity * l.UnitPrice);
    }
}
